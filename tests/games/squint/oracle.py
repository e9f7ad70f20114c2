"""A slow, obviously-correct reference of Squint trick play, written from the rules text
(docs/rules/squint.md §2 and §7), not from the C code.

Cards are strings in the common notation: rank then suit, e.g. "AS", "TH", "2C".
Trumps are a suit letter ("C", "D", "H", "S") or None (no-trump contracts).
"""

from __future__ import annotations

# §2: every suit ranks A K Q J T 9 8 7 6 5 4 3 2, Ace high.
ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


def suit(card: str) -> str:
    return card[1]


def height(card: str) -> int:
    return ORDER.index(card[0])


def legal(hand: list[str], trick: list[str]) -> set[str]:
    """§7.1-2: the leader may play anything; a follower must follow the led suit if able,
    otherwise may play any card (no obligation to trump or to beat)."""
    if not trick:
        return set(hand)
    led = suit(trick[0])
    following = [c for c in hand if suit(c) == led]
    return set(following) if following else set(hand)


def winner_index(trick: list[str], trump: str | None) -> int:
    """§7.3: the highest trump in the trick; with no trump in it (always in no-trump
    contracts) the highest card of the suit led.  Returns the index in play order."""
    trumps = [i for i, c in enumerate(trick) if trump is not None and suit(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: height(trick[i]))
    led = suit(trick[0])
    return max((i for i, c in enumerate(trick) if suit(c) == led), key=lambda i: height(trick[i]))


def winner_seat(leader: int, trick: list[str], trump: str | None, n_players: int = 5) -> int:
    return (leader + winner_index(trick, trump)) % n_players


def perft(hands: dict[int, list[str]], leader: int, trick: list[str], trump: str | None, depth: int,
          tricks_left: int) -> int:
    """Number of legal play sequences of length ``depth`` (or to the end of the deal) from a
    position: ``hands[seat]``, the trick in progress led by ``leader``."""
    if depth == 0 or tricks_left == 0:
        return 1
    seat = (leader + len(trick)) % 5
    total = 0
    for card in sorted(legal(hands[seat], trick)):
        hands[seat].remove(card)
        now = trick + [card]
        if len(now) == 5:
            total += perft(hands, winner_seat(leader, now, trump), [], trump, depth - 1, tricks_left - 1)
        else:
            total += perft(hands, leader, now, trump, depth - 1, tricks_left)
        hands[seat].append(card)
    return total
