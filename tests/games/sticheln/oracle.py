"""A slow, obviously-correct model of the Sticheln trick rules, written from the rules text
(docs/rules/sticheln.md C5-C7, V2), not from the C code.

Cards are (colour, value) pairs, colours 0..5 (R B G Y N V).  A trick is the list of its
cards in play order, the lead first."""

from __future__ import annotations


def legal(hand, trick):
    """C5: no duty to follow colour and no duty to beat: every card in hand is legal."""
    return set(hand)


def is_trump(card, lead_colour):
    """C6: a trump is a card whose colour differs from the lead colour and whose value is not 0."""
    colour, value = card
    return colour != lead_colour and value != 0


def winner(trick, lowest_trump_wins=False):
    """Index (in play order) of the card that wins ``trick`` (C7; V2 with verkehrt).

    (a) If the trick holds a trump, the highest trump (verkehrt: the lowest) wins; among
        equal values the one played first.
    (b) Otherwise the highest card of the lead colour wins."""
    lead_colour = trick[0][0]
    trumps = [i for i, card in enumerate(trick) if is_trump(card, lead_colour)]
    if trumps:
        values = [trick[i][1] for i in trumps]
        target = min(values) if lowest_trump_wins else max(values)
        for i in trumps:  # in play order: the first one with the target value
            if trick[i][1] == target:
                return i
    best = None
    for i, (colour, value) in enumerate(trick):
        if colour == lead_colour and (best is None or value > trick[best][1]):
            best = i
    return best


def score(laid, special, won, verkehrt=False, mild=False):
    """Round score of one player (C9, V3, M1, S3, L3 and the §3.6 formula), recomputed here
    independently of the game module.  laid: laid-out cards, special: his annoyance (lucky)
    colours, won: his won cards."""
    special = set(special)
    if verkehrt:
        plus = sum(v for _c, v in laid) + sum(v for c, v in won if c in special)
        minus = sum(1 for c, _v in won if c not in special)
        return plus - minus
    if mild:
        minus = 5 * (len(laid) + sum(1 for c, _v in won if c in special))
        plus = sum(1 for c, _v in won if c not in special)
        return plus - minus
    minus = sum(v for _c, v in laid) + sum(v for c, v in won if c in special)
    plus = sum(1 for c, _v in won if c not in special)
    return plus - minus
