"""Adapters of the trickcore games to machine-learning frameworks, each an optional extra:
``trickcore.integrations.openspiel`` (``pip install "trickcore[openspiel]"``) and
``trickcore.integrations.pettingzoo`` (``pip install "trickcore[pettingzoo]"``).  Both are built on
``trickcore.encodings``; docs/integrations.md shows them in use."""
