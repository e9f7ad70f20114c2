/* play.c - the trick phase of a deal: checked play, random playouts, perft,
 * and the benchmark reference game. */
#include <string.h>
#include "rules_inline.h"

/* The start of a trick phase, with nothing checked (the benchmark game's own
 * deals, and tc_play_init after its checks). */
static void play_start(tc_play_state *s, const tc_rules *r, const tc_cards *hands, int leader, int tricks) {
    int p;
    memset(s, 0, sizeof *s);
    for (p = 0; p < r->n_players; p++) s->hand[p] = hands[p];
    tc_trick_start(&s->trick, leader);
    tc_trick_start(&s->last_trick, leader);
    s->tricks_left = tricks;
    s->last_winner = -1;
    s->rules = *r;
}

/* The hands of tc_play_init: inside the deck, disjoint, enough cards for every
 * trick, and under the trump rule fewer always-playable cards than seats, so
 * every trick holds a card that can win it (Beim Jupiter rule 2.2). */
static int hands_status(const tc_deck *d, const tc_rules *r, const tc_cards *hands, int tricks) {
    tc_cards seen = tc_cards_empty();
    int p;
    for (p = 0; p < r->n_players; p++) {
        if (!tc_is_empty(tc_minus(hands[p], d->all))) return TC_E_CARD;
        if (!tc_is_empty(tc_and(hands[p], seen))) return TC_E_HANDS;
        if (tc__count(hands[p]) < tricks) return TC_E_HANDS;
        seen = tc_or(seen, hands[p]);
    }
    if (r->winner == TC_WIN_TRUMP && tc__count(tc_and(seen, d->always)) >= r->n_players) return TC_E_UNPLAYABLE;
    return TC_OK;
}

int tc_play_init(tc_play_state *s, const tc_deck *d, const tc_rules *r, const tc_cards *hands, int leader, int tricks) {
    int rc;
    if (!s || !d || !r || !hands) return TC_E_ARG;
    if ((rc = tc_deck_check(d)) != TC_OK) return rc;
    return tc_play_init_checked(s, d, r, hands, leader, tricks);
}

int tc_play_init_checked(tc_play_state *s, const tc_deck *d, const tc_rules *r, const tc_cards *hands, int leader,
                         int tricks) {
    int rc;
    if (!s || !d || !r || !hands) return TC_E_ARG;
    if ((rc = tc_rules_check(d, r)) != TC_OK) return rc;
    if (leader < 0 || leader >= r->n_players) return TC_E_SEAT;
    if (tricks < 0 || tricks > TC_MAX_CARDS) return TC_E_ARG;
    if ((rc = hands_status(d, r, hands, tricks)) != TC_OK) return rc;
    play_start(s, r, hands, leader, tricks);
    return TC_OK;
}

/* The rules a caller passes must be the state's own: a different player count
 * would index the trick's arrays past its seats. */
static int same_rules(const tc_play_state *s, const tc_rules *r) {
    return r->n_players == s->rules.n_players && r->follow == s->rules.follow &&
           r->winner == s->rules.winner && r->trump == s->rules.trump;
}

int tc_play_to_move(const tc_play_state *s, const tc_rules *r) {
    if (!s || !r || !same_rules(s, r) || tc_play_over(s)) return -1;
    return tc_trick_to_move(&s->trick, r->n_players);
}

int tc_play_moves(const tc_deck *d, const tc_rules *r, const tc_play_state *s, uint16_t *out) {
    int seat;
    if (!d || !r || !s || !out) return TC_E_ARG;
    if (!same_rules(s, r)) return TC_E_RULES;
    seat = tc_play_to_move(s, r);
    if (seat < 0) return 0;
    return tc__moves(d, r, &s->trick, s->hand[seat], out);
}

/* Credit a completed trick and start the next one. */
static void finish_trick(const tc_deck *d, const tc_rules *r, tc_play_state *s) {
    tc_trick *t = &s->trick;
    int n = r->n_players, i, next;
    if (r->winner == TC_WIN_DOUBLE) {
        for (i = 0; i < t->n_played; i++) {
            int seat = (t->leader + i) % n;
            tc_cards bit = tc_cards_of(t->card[i]);
            if (t->pile[i] == TC_PILE_PASS) {
                s->passed[seat] = tc_or(s->passed[seat], bit);
            } else {
                int w = tc__trick_winner(t, n, t->pile[i]);   /* >= 0: the pile holds this card */
                s->won[w] = tc_or(s->won[w], bit);
                s->points[w] = (uint16_t)(s->points[w] + d->points[t->card[i]]);
            }
        }
        for (i = 0; i < 2; i++)
            if (t->best[i] >= 0) s->tricks[tc__trick_winner(t, n, i)]++;
        next = tc__next_leader(d, t, n);
    } else {
        int w = tc__trick_winner(t, n, 0);
        if (w < 0) w = t->leader;   /* no winner: impossible after tc_play_init's checks (trickcore.h) */
        s->won[w] = tc_or(s->won[w], t->cards);
        s->tricks[w]++;
        s->points[w] = (uint16_t)(s->points[w] + t->points);
        next = w;
    }
    s->last_winner = next;
    s->last_trick = *t;
    s->tricks_left--;
    tc_trick_start(t, next);
}

static inline void play_unchecked(const tc_deck *d, const tc_rules *r, tc_play_state *s, int move) {
    int seat = tc_trick_to_move(&s->trick, r->n_players);
    int card = TC_MOVE_CARD(move);
    s->hand[seat].w[card >> 6] &= ~((uint64_t)1 << (card & 63));   /* one word, in place */
    tc__trick_add(d, r, &s->trick, move);
    if (s->trick.n_played == r->n_players) finish_trick(d, r, s);
}

/* internal.h: a move taken from the list tc__moves made for this very position, which is what
 * tc_play's checks would accept, played without checking it again. */
void tc__play_listed(const tc_deck *d, const tc_rules *r, tc_play_state *s, int move) {
    play_unchecked(d, r, s, move);
}

int tc_play(const tc_deck *d, const tc_rules *r, tc_play_state *s, int move) {
    int seat, card, decl;
    if (!d || !r || !s) return TC_E_ARG;
    if (!same_rules(s, r)) return TC_E_RULES;
    if (tc_play_over(s)) return TC_E_STATE;
    if (move < 0 || move >= 256) return TC_E_CARD;
    card = TC_MOVE_CARD(move);
    decl = TC_MOVE_DECL(move);
    if (card >= d->n_cards) return TC_E_CARD;
    if (decl && !(d->role[card] & TC_ROLE_DECLARED)) return TC_E_DECL;
    seat = tc_trick_to_move(&s->trick, r->n_players);
    if (!tc_has(s->hand[seat], card)) return TC_E_NOT_IN_HAND;
    if (!tc_has(tc__legal(d, r, &s->trick, s->hand[seat]), card)) return TC_E_ILLEGAL;
    play_unchecked(d, r, s, move);
    return TC_OK;
}

int tc_playout(const tc_deck *d, const tc_rules *r, tc_play_state *s, tc_rng *rng) {
    tc_cards special;
    int plain_deck;
    uint16_t moves[TC_MAX_MOVES];
    /* The checks first: the deck is read only once it is known not to be NULL. */
    if (!d || !r || !s || !rng) return TC_E_ARG;
    special = tc_or(d->declared, d->twin);
    plain_deck = tc_is_empty(special);
    if (!same_rules(s, r)) return TC_E_RULES;
    while (!tc_play_over(s)) {
        int seat = tc_trick_to_move(&s->trick, r->n_players);
        tc_cards legal = tc__legal(d, r, &s->trick, s->hand[seat]);
        int move;
        if (plain_deck || tc_is_empty(tc_and(legal, special))) {
            /* Plain cards: one move per legal card, pick one uniformly. */
            if (tc_is_empty(legal)) return TC_E_STATE;
            move = tc__random_card(legal, rng);
        } else {
            int n = tc__moves(d, r, &s->trick, s->hand[seat], moves);
            if (n <= 0) return TC_E_STATE;
            move = moves[tc__rng_below(rng, (uint32_t)n)];
        }
        play_unchecked(d, r, s, move);
    }
    return TC_OK;
}

/* ---- playouts for search ------------------------------------------------ */
/* The greedy policy's move (trickcore.h): rank each legal move by what it does to
 * the trick now, keep the best rank, break ties at random. */
static int greedy_move(const tc_deck *d, const tc_rules *r, const tc_play_state *s, tc_rng *rng) {
    uint16_t moves[TC_MAX_MOVES];
    int seat = tc_trick_to_move(&s->trick, r->n_players);
    int n = tc__moves(d, r, &s->trick, s->hand[seat], moves), i, best_rank = 1 << 30, ties = 0, pick = -1;
    for (i = 0; i < n; i++) {
        tc_trick t = s->trick;
        int at = t.n_played, rank, pile;
        tc__trick_add(d, r, &t, moves[i]);
        pile = t.pile[at] == TC_PILE_PASS ? 0 : t.pile[at];
        /* Winning moves rank below 256 (weakest first), the others from 256 (weakest first). */
        rank = (t.best[pile] == at ? 0 : 256) + t.power[at];
        if (rank < best_rank) {
            best_rank = rank;
            ties = 1;
            pick = moves[i];
        } else if (rank == best_rank && tc__rng_below(rng, (uint32_t)++ties) == 0) {
            pick = moves[i];   /* reservoir sampling: each tie equally likely */
        }
    }
    return pick;
}

int tc_policy_move(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int policy, tc_rng *rng) {
    uint16_t moves[TC_MAX_MOVES];
    int n;
    if (!d || !r || !s || !rng) return TC_E_ARG;
    if (policy != TC_POLICY_RANDOM && policy != TC_POLICY_GREEDY) return TC_E_ARG;
    if (!same_rules(s, r)) return TC_E_RULES;
    if (tc_play_over(s)) return TC_E_STATE;
    if (policy == TC_POLICY_GREEDY) {
        int move = greedy_move(d, r, s, rng);
        return move < 0 ? TC_E_STATE : move;
    }
    n = tc__moves(d, r, &s->trick, s->hand[tc_trick_to_move(&s->trick, r->n_players)], moves);
    return n <= 0 ? TC_E_STATE : moves[tc__rng_below(rng, (uint32_t)n)];
}

/* One playout of `s` (changed) with `policy`; TC_E_STATE if a seat has no move. */
static int playout_with(const tc_deck *d, const tc_rules *r, tc_play_state *s, int policy, tc_rng *rng) {
    if (policy == TC_POLICY_RANDOM) return tc_playout(d, r, s, rng);
    while (!tc_play_over(s)) {
        int move = greedy_move(d, r, s, rng);
        if (move < 0) return TC_E_STATE;
        play_unchecked(d, r, s, move);
    }
    return TC_OK;
}

static int playouts_into(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int n, int policy,
                         tc_rng *rng, tc_playout_stats *out) {
    uint64_t tricks[TC_MAX_PLAYERS] = {0}, points[TC_MAX_PLAYERS] = {0};
    int i, p, rc;
    for (i = 0; i < n; i++) {
        tc_play_state c = *s;
        if ((rc = playout_with(d, r, &c, policy, rng)) != TC_OK) return rc;
        for (p = 0; p < r->n_players; p++) {
            tricks[p] += c.tricks[p];
            points[p] += c.points[p];
        }
    }
    memset(out, 0, sizeof *out);
    out->n = (uint32_t)n;
    for (p = 0; p < r->n_players; p++) {
        out->tricks[p] = (double)tricks[p] / n;
        out->points[p] = (double)points[p] / n;
    }
    return TC_OK;
}

int tc_playouts(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int n, int policy, tc_rng *rng,
                tc_playout_stats *out) {
    if (!d || !r || !s || !rng || !out || n < 1) return TC_E_ARG;
    if (policy != TC_POLICY_RANDOM && policy != TC_POLICY_GREEDY) return TC_E_ARG;
    if (!same_rules(s, r)) return TC_E_RULES;
    return playouts_into(d, r, s, n, policy, rng, out);
}

int tc_playouts_per_move(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int n, int policy,
                         tc_rng *rng, uint16_t *moves, tc_playout_stats *out) {
    int k, count, rc;
    if (!d || !r || !s || !rng || !moves || !out || n < 1) return TC_E_ARG;
    if (policy != TC_POLICY_RANDOM && policy != TC_POLICY_GREEDY) return TC_E_ARG;
    if (!same_rules(s, r)) return TC_E_RULES;
    if (tc_play_over(s)) return 0;
    count = tc__moves(d, r, &s->trick, s->hand[tc_trick_to_move(&s->trick, r->n_players)], moves);
    for (k = 0; k < count; k++) {
        tc_play_state after = *s;
        play_unchecked(d, r, &after, moves[k]);
        if ((rc = playouts_into(d, r, &after, n, policy, rng, &out[k])) != TC_OK) return rc;
    }
    return count;
}

static uint64_t perft_rec(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int depth,
                          tc_perft_stats *stats) {
    uint16_t moves[TC_MAX_MOVES];
    uint64_t total = 0;
    int n, i, p;
    if (depth == 0 || tc_play_over(s)) {
        if (stats) {
            stats->leaves++;
            for (p = 0; p < r->n_players; p++) {
                stats->tricks[p] += s->tricks[p];
                stats->points[p] += s->points[p];
            }
        }
        return 1;
    }
    n = tc__moves(d, r, &s->trick, s->hand[tc_trick_to_move(&s->trick, r->n_players)], moves);
    for (i = 0; i < n; i++) {
        tc_play_state child = *s;               /* copy-make: no undo bookkeeping */
        play_unchecked(d, r, &child, moves[i]);
        total += perft_rec(d, r, &child, depth - 1, stats);
    }
    return total;
}

uint64_t tc_perft(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int depth, tc_perft_stats *stats) {
    if (stats) memset(stats, 0, sizeof *stats);
    if (!d || !r || !s || !same_rules(s, r)) return 0;
    return perft_rec(d, r, s, depth < 0 ? -1 : depth, stats);
}

/* ---- reference game ----------------------------------------------------- */
void tc_reference_deck(tc_deck *d) {
    int suit, rank;
    tc_deck_init(d, 4);
    for (suit = 0; suit < 4; suit++)
        for (rank = 0; rank < 13; rank++) tc_deck_add(d, suit, rank, rank, rank, 0, 0);
}

int tc_reference_playout(const tc_deck *d, tc_rng *rng, uint32_t *tricks_out) {
    tc_rules r;
    tc_cards hands[4];
    tc_play_state s;
    int p;
    r.n_players = 4;
    r.follow = TC_FOLLOW_SUIT;
    r.winner = TC_WIN_TRUMP;
    r.trump = (int)tc__rng_below(rng, 4);
    tc_deal(rng, d->all, 4, 13, hands, NULL);
    play_start(&s, &r, hands, 0, 13);   /* a checked deck and a full deal: no checks per playout */
    tc_playout(d, &r, &s, rng);
    if (tricks_out)
        for (p = 0; p < 4; p++) tricks_out[p] += s.tricks[p];
    return s.tricks[0] + s.tricks[1] + s.tricks[2] + s.tricks[3];
}
