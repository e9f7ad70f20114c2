"""A slow, obviously-correct model of the Hattrick double-trick rules, written from the
rules text (docs/rules/sticheln.md H2-H5), not from the C code.

Cards are (colour, value) pairs, colours 0 red, 1 blue, 2 green.  A double trick is the
list of its cards in play order, the leader's first."""

from __future__ import annotations

PASS = "pass"


def classify(trick):
    """What each card did (H3): 0 = joined/opened the first trick, 1 = the second trick,
    PASS = a pass with a third-colour card."""
    open_colours = []  # colours opened so far, in opening order
    out = []
    for colour, _value in trick:
        if colour in open_colours:
            out.append(open_colours.index(colour))       # joins that trick
        elif len(open_colours) < 2:
            open_colours.append(colour)                  # opens the first or second trick
            out.append(len(open_colours) - 1)
        else:
            out.append(PASS)                             # third colour: a pass
    return out


def legal(hand, trick):
    """H3: every card in hand is a legal action, each with exactly one meaning:
    {card: 'open' | 'join' | 'pass'}."""
    open_colours = []
    for colour, _value in trick:
        if colour not in open_colours and len(open_colours) < 2:
            open_colours.append(colour)
    out = {}
    for card in hand:
        if card[0] in open_colours:
            out[card] = "join"
        elif len(open_colours) < 2:
            out[card] = "open"
        else:
            out[card] = "pass"
    return out


def resolve(trick):
    """(winner index of trick 0, winner index of trick 1 or None, index of the next leader)
    for a complete or partial double trick (H4, H5)."""
    piles = classify(trick)
    winners = []
    values = []
    for p in (0, 1):
        idx = [i for i, q in enumerate(piles) if q == p]
        if not idx:
            winners.append(None)
            values.append([])
            continue
        winners.append(max(idx, key=lambda i: trick[i][1]))  # values in a colour are unique
        values.append(sorted((trick[i][1] for i in idx), reverse=True))
    if winners[0] is None:
        return None, None, None
    if winners[1] is None:
        return winners[0], None, winners[0]
    a, b = values
    lead_pile = None
    for k in range(max(len(a), len(b))):
        if k >= len(b):
            lead_pile = 0
        elif k >= len(a):
            lead_pile = 1
        elif a[k] != b[k]:
            lead_pile = 0 if a[k] > b[k] else 1
        if lead_pile is not None:
            break
    if lead_pile is None:  # identical lists: the colour order red, blue, green decides
        c0 = trick[winners[0]][0]
        c1 = trick[winners[1]][0]
        lead_pile = 0 if c0 < c1 else 1
    return winners[0], winners[1], winners[lead_pile]


def score(r, b, g, passes):
    """H7: the colour with most cards +1 each, the others -1 each, -2 per pass card."""
    best = max(r, b, g)
    return best - (r + b + g - best) - 2 * passes
