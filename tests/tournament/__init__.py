"""Tests of the tournament runner (tournament/)."""
