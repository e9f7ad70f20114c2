"""The wire format: parsing bot lines and option declarations."""

from __future__ import annotations

import pytest

from tournament import wire


def test_runner_messages():
    assert wire.hello() == "trickcore 1"
    assert wire.setoption("verbose", True) == "setoption verbose true"
    assert wire.isready(4) == "isready 4"
    line = wire.request(7, {"legal": ["AS", "KD"], "view": {"hand": ["AS"]}})
    assert line == 'request 7 2 {"legal":["AS","KD"],"view":{"hand":["AS"]}}'
    assert "\n" not in wire.event({"text": "a\nb"})
    # ASCII on the wire whatever the payload (docs/protocol.md section 1), keys sorted.
    assert wire.event({"b": "Kö\u2665", "a": 2**70}) == 'event {"a":1180591620717411303424,"b":"K\\u00f6\\u2665"}'
    assert wire.event({"z": 1.5, "a": [None, True]}) == 'event {"a":[null,true],"z":1.5}'


@pytest.mark.parametrize("text,kind,field,value", [
    ("action 3 AS", "action", "action", "AS"),
    ("action 3 bid 5 hearts", "action", "action", "bid 5 hearts"),
    ("action  12   #0 ", "action", "action", "#0"),
    ("readyok 5", "readyok", "token", "5"),
    ("trickcoreok 1", "trickcoreok", "token", "1"),
    ("id name My Bot 2", "id", "token", "My Bot 2"),
    ("info thinking hard", "info", "kind", "info"),
    ("feature events off", "feature", "token", "off"),
    ("feature events on", "feature", "key", "events"),
    ("feature telepathy on", "unknown", "kind", "unknown"),  # a feature of a later version
    ("hello there", "unknown", "kind", "unknown"),
    ("", "empty", "kind", "empty"),
])
def test_parse_bot_lines(text, kind, field, value):
    line = wire.parse_bot_line(text)
    assert line.kind == kind
    assert getattr(line, field) == value


@pytest.mark.parametrize("text,message", [
    ("action", "action without a request id"),
    ("action x AS", "action: request id 'x' is not an integer"),
    ("action 4", "action 4: no option given"),
    ("readyok", "readyok without the token"),
    ("trickcoreok", "trickcoreok without a protocol version"),
    ("id colour red", "id must be 'id name <text>' or 'id author <text>'"),
    ("feature events sometimes", "feature events must be one of on, off, got 'sometimes'"),
])
def test_malformed_known_commands(text, message):
    with pytest.raises(wire.WireError, match=message):
        wire.parse_bot_line(text)


def test_option_declarations():
    o = wire.parse_option("depth int 3 1 10")
    assert (o.name, o.type, o.default, o.minimum, o.maximum) == ("depth", "int", 3, 1, 10)
    assert o.check(5) is None
    assert o.check(11) == "must be <= 10, got 11"
    assert o.check(2.5) == "must be an integer (int option), got 2.5"
    assert wire.parse_option("temp float 0.5").check(True) == "must be a number (float option), got True"
    assert wire.parse_option("v bool false").default is False
    assert wire.parse_option("label string hello world").default == "hello world"
    c = wire.parse_option("style choice safe safe wild")
    assert c.choices == ("safe", "wild") and c.check("bold") == "must be one of safe, wild (choice option), got 'bold'"


@pytest.mark.parametrize("text,message", [
    ("depth", "needs at least a name, a type and a default"),
    ("depth long 3", "unknown type 'long'"),
    ("depth int x", "default 'x' is not an integer"),
    ("depth int 3 1", "takes either no bounds or both"),
    ("depth int 30 1 10", "default 30 is outside 1..10"),
    ("v bool maybe", "a bool option is"),
    ("s choice x a b", "the default must be one of them"),
])
def test_bad_option_declarations(text, message):
    with pytest.raises(wire.WireError, match=message):
        wire.parse_option(text)


def test_resolve_action_and_garbage():
    assert wire.resolve_action("#1", ["a", "b"]) == "b"
    assert wire.resolve_action("#2", ["a", "b"]) is None
    assert wire.resolve_action("c", ["a", "b"]) == "c"  # the game judges text
    assert wire.is_garbage("abc\x00") and wire.is_garbage("\x1b[31m") and not wire.is_garbage("a\tb")
