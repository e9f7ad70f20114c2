/*
 * trickcore.h - the single public header of the trickcore C core.
 *
 * A plain C99 library for trick-taking card games: 128-card bitboards, a deck
 * description, legal-move generation and trick resolution for every follow and
 * winner rule the trickcore games need, a portable seeded RNG, random playouts
 * and perft.  No allocation, no global state, no I/O: every function works on
 * caller-owned structs, so the library is thread-safe and embeddable anywhere.
 *
 * Conventions
 *   - Functions return TC_OK (0) or a negative tc_status; tc_strerror() names it.
 *   - Checked entry points (tc_deck_*, tc_rules_check, tc_deal, tc_play_init,
 *     tc_play, tc_play_moves, tc_playout, tc_perft and the trick wrappers)
 *     refuse any argument they cannot use with a status and never read or write
 *     out of bounds.  The inline card-set helpers are unchecked fast paths: card
 *     ids must be 0..TC_MAX_CARDS-1 (tc_has masks them, so it stays in bounds).
 *     docs/engine.md states the whole contract: checks, ownership, threads.
 *   - A card is an id 0..TC_MAX_CARDS-1 chosen by the game when it builds its
 *     deck (tc_deck_add); its suit, rank, strength and points live in the deck.
 *   - A move is a card id plus a declaration bit (see TC_MOVE below).
 *   - Seats are 0..n_players-1, play goes to increasing seat numbers mod n.
 */
#ifndef TRICKCORE_H
#define TRICKCORE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TC_VERSION_MAJOR 2
#define TC_VERSION_MINOR 0
#define TC_VERSION_STRING "2.0.0"

#define TC_MAX_CARDS 128   /* card ids 0..127: two 64-bit words */
#define TC_MAX_SUITS 8
#define TC_MAX_PLAYERS 8
#define TC_NO_SUIT (-1)    /* suit of suitless cards (Jupiter, Juno, lambs) */
#define TC_MAX_MOVES 256   /* enough for any hand: every card twice (declarations) */

/* ---- status codes -------------------------------------------------------- */
typedef enum {
    TC_OK = 0,
    TC_E_CARD = -1,        /* card id out of range or not in the deck */
    TC_E_NOT_IN_HAND = -2, /* the card is not in the player's hand */
    TC_E_ILLEGAL = -3,     /* the card is in hand but the follow rule forbids it */
    TC_E_PLAYERS = -4,     /* player count outside 2..TC_MAX_PLAYERS */
    TC_E_DECL = -5,        /* a declaration on a card that takes none */
    TC_E_STATE = -6,       /* the state does not allow this (hand over, trick full) */
    TC_E_ARG = -7,         /* another bad argument: a NULL pointer, a negative size */
    TC_E_FULL = -8,        /* the deck already holds TC_MAX_CARDS cards */
    TC_E_SUIT = -9,        /* suit count outside 0..TC_MAX_SUITS, or a card's suit not in the deck */
    TC_E_VALUE = -10,      /* rank, strength, points or a declared strength outside 0..255 */
    TC_E_ROLE = -11,       /* unknown or contradictory role bits, or a suitless card that is
                              neither TC_ROLE_ALWAYS nor TC_ROLE_TOP_TRUMP (it could never be
                              followed, led to a suit, or win) */
    TC_E_STRENGTH = -12,   /* two cards of one suit share a strength or trump strength (ties
                              would be decided by play order instead of by the cards) */
    TC_E_TWIN = -13,       /* a TC_ROLE_TWIN card differs from the deck's other twins */
    TC_E_DECK = -14,       /* the deck struct is inconsistent (sizes out of range, or masks
                              that do not match the per-card tables) */
    TC_E_FOLLOW = -15,     /* rules.follow is not a tc_follow */
    TC_E_WINNER = -16,     /* rules.winner is not a tc_winner */
    TC_E_TRUMP = -17,      /* rules.trump is neither TC_NO_SUIT nor a suit of the deck */
    TC_E_UNPLAYABLE = -18, /* deck and rules together could produce a trick without a winner
                              or an unfollowable lead: suitless cards under a winner rule
                              other than TC_WIN_TRUMP or under TC_FOLLOW_OVERTRUMP, or (with
                              TC_WIN_TRUMP) as many always-playable cards in the hands as seats */
    TC_E_HANDS = -19,      /* hands overlap, or a hand holds fewer cards than there are tricks */
    TC_E_SEAT = -20,       /* a seat (leader) outside 0..n_players-1 */
    TC_E_RULES = -21       /* rules differ from those the play state was started with */
} tc_status;
#define TC_STATUS_MIN TC_E_RULES   /* the lowest status code; tc_strerror names every one */

const char *tc_strerror(int status);
const char *tc_version(void);

/* ---- card sets ----------------------------------------------------------- */
/* Bit i of the 128-bit set is card id i: w[0] holds ids 0..63, w[1] ids 64..127.
 * Measured against one 32-bit holding per suit (docs/engine.md): two words make
 * union/popcount/random choice 2-4 ops instead of 8, and per-suit questions are
 * one AND with a precomputed suit mask, so two words win on every hot path. */
typedef struct { uint64_t w[2]; } tc_cards;

static inline tc_cards tc_cards_empty(void) { tc_cards c = {{0, 0}}; return c; }
static inline tc_cards tc_cards_of(int card) {
    /* Branch-free: an indexed store would force the set through memory. */
    uint64_t bit = (uint64_t)1 << (card & 63);
    tc_cards c;
    c.w[0] = card < 64 ? bit : 0;
    c.w[1] = card < 64 ? 0 : bit;
    return c;
}
static inline tc_cards tc_or(tc_cards a, tc_cards b) { a.w[0] |= b.w[0]; a.w[1] |= b.w[1]; return a; }
static inline tc_cards tc_and(tc_cards a, tc_cards b) { a.w[0] &= b.w[0]; a.w[1] &= b.w[1]; return a; }
static inline tc_cards tc_minus(tc_cards a, tc_cards b) { a.w[0] &= ~b.w[0]; a.w[1] &= ~b.w[1]; return a; }
static inline int tc_is_empty(tc_cards a) { return (a.w[0] | a.w[1]) == 0; }
/* Membership of `card` (taken modulo TC_MAX_CARDS: never out of bounds). */
static inline int tc_has(tc_cards a, int card) {
    unsigned u = (unsigned)card;
    return (int)((a.w[(u >> 6) & 1u] >> (u & 63u)) & 1u);
}
static inline int tc_equal(tc_cards a, tc_cards b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }

int tc_count(tc_cards a);               /* popcount */
int tc_first(tc_cards a);               /* lowest id, -1 if empty */
int tc_last(tc_cards a);                /* highest id, -1 if empty */
int tc_nth(tc_cards a, int n);          /* the n-th (0-based) set id in ascending order, -1 if none */
int tc_next(tc_cards a, int after);     /* lowest id > after, -1 if none (any int after); iterate from after=-1 */
int tc_to_array(tc_cards a, uint8_t *out); /* writes ids ascending into out[TC_MAX_CARDS], returns the count */

/* ---- seeded random generator -------------------------------------------- */
/* xoshiro256** seeded through splitmix64.  Part of the API contract: the same
 * seed yields the same sequence, shuffles and deals on every platform.
 *   tc_rng_seed:  s[i] = splitmix64 outputs 1..4 starting from state = seed.
 *   tc_rng_below: uniform in [0, n) by Lemire's multiply-shift on the high
 *                 32 bits x of next(): m = x * n (64-bit); if (uint32)m < (2^32 - n) mod n
 *                 draw again; the result is m >> 32.
 *   tc_shuffle:   Fisher-Yates from the top: for i = len-1 .. 1,
 *                 j = tc_rng_below(i+1), swap a[i], a[j]. */
typedef struct { uint64_t s[4]; } tc_rng;

void tc_rng_seed(tc_rng *rng, uint64_t seed);
uint64_t tc_rng_next(tc_rng *rng);
uint32_t tc_rng_below(tc_rng *rng, uint32_t n);  /* n >= 1 (n = 0 gives 0) */
void tc_shuffle(tc_rng *rng, uint8_t *a, int len); /* a holds len bytes; len <= 0 does nothing */
/* Shuffle the ids of `cards` ascending-listed, then deal hand_size to each of
 * n_players seats in turn-blocks (seat 0 gets the first hand_size cards, ...);
 * the remaining cards go to *rest (may be NULL).  `hands` holds n_players sets.
 * TC_E_PLAYERS unless 1 <= n_players <= TC_MAX_PLAYERS; TC_E_ARG for NULL rng or
 * hands, a negative hand_size, or more cards asked for than `cards` holds. */
int tc_deal(tc_rng *rng, tc_cards cards, int n_players, int hand_size, tc_cards *hands, tc_cards *rest);

/* ---- deck description ---------------------------------------------------- */
/* Card roles, a bit set per card:
 *   TC_ROLE_ALWAYS     may always be played, never follows or sets the lead,
 *                      never wins (Beim Jupiter's Opferlamm).
 *   TC_ROLE_TOP_TRUMP  suitless trump above every trump; counts as the trump
 *                      suit for following; among several the first played wins
 *                      (Jupiter, Juno).
 *   TC_ROLE_DECLARED   strength declared when played: declaration 0 gives
 *                      decl_strength[0], 1 gives decl_strength[1] (God card).
 *   TC_ROLE_TWIN       identical to every other TWIN card: a hand holding several
 *                      offers one move (the lowest id) - lambs. */
enum {
    TC_ROLE_ALWAYS = 1,
    TC_ROLE_TOP_TRUMP = 2,
    TC_ROLE_DECLARED = 4,
    TC_ROLE_TWIN = 8
};

typedef struct {
    int n_suits;
    int n_cards;                         /* ids 0..n_cards-1 are in use */
    int8_t suit[TC_MAX_CARDS];           /* 0..n_suits-1 or TC_NO_SUIT */
    uint8_t rank[TC_MAX_CARDS];          /* face value / natural order */
    uint8_t strength[TC_MAX_CARDS];      /* order within its suit when not trump */
    uint8_t trump_strength[TC_MAX_CARDS];/* order within the trump suit */
    uint8_t points[TC_MAX_CARDS];        /* card points counted in won tricks */
    uint8_t role[TC_MAX_CARDS];          /* TC_ROLE_* bits */
    uint8_t decl_strength[2];            /* strengths of declarations 0 and 1 */
    tc_cards all;                        /* every card of the deck */
    tc_cards suit_mask[TC_MAX_SUITS];
    tc_cards always, top_trump, declared, twin; /* cards with each role */
} tc_deck;

/* An empty deck with n_suits suits; TC_E_SUIT (and an empty deck of 0 suits)
 * unless 0 <= n_suits <= TC_MAX_SUITS. */
int tc_deck_init(tc_deck *d, int n_suits);
/* Add one card; returns its id (the next free id) or a negative status, and the
 * deck is unchanged on error.  trump_strength = strength when the game's order
 * does not change for trumps.  Refused: TC_E_FULL, TC_E_SUIT (suit not in
 * 0..n_suits-1 and not TC_NO_SUIT), TC_E_VALUE (a number outside 0..255),
 * TC_E_ROLE (unknown bits; ALWAYS with TOP_TRUMP; a suitless card without
 * ALWAYS or TOP_TRUMP; a suited ALWAYS or TOP_TRUMP card), TC_E_STRENGTH (the
 * strength or trump strength of an earlier card of the same suit; TWIN and
 * DECLARED cards are exempt: twins are equal by definition, a declared card's
 * strength comes from its declaration), TC_E_TWIN (a twin unlike earlier twins). */
int tc_deck_add(tc_deck *d, int suit, int rank, int strength, int trump_strength, int points, int role);
/* Strengths of declarations 0 and 1 (TC_E_VALUE outside 0..255). */
int tc_deck_set_decl(tc_deck *d, int strength0, int strength1);
/* Everything tc_deck_add enforces, for a deck filled in by other means (a
 * struct written field by field, or bytes read from elsewhere); TC_E_DECK if
 * the sizes or masks do not match the per-card tables.  O(cards); tc_play_init
 * calls it. */
int tc_deck_check(const tc_deck *d);

/* ---- rules of a deal ------------------------------------------------------- */
typedef enum {
    TC_FOLLOW_FREE = 0,      /* any card (Sticheln) */
    TC_FOLLOW_SUIT = 1,      /* follow the led category if able, else anything; honours
                                TC_ROLE_ALWAYS / TOP_TRUMP (Squint, Beim Jupiter, reference) */
    TC_FOLLOW_OVERTRUMP = 2, /* follow; else trump; over-trump if able, under-trump if not
                                (Klaberjass §7.2) */
    TC_FOLLOW_DOUBLE = 3     /* Hattrick double trick: every card legal; it joins an open
                                colour, opens the second, or passes (third colour) */
} tc_follow;

typedef enum {
    TC_WIN_TRUMP = 0,        /* top trumps (first played) > highest trump > highest of led suit */
    TC_WIN_OFFLEAD_HIGH = 1, /* Sticheln: every non-lead colour is trump except zeros (rank 0);
                                highest trump wins, ties to the first played; else highest led */
    TC_WIN_OFFLEAD_LOW = 2,  /* verkehrt: as above but the lowest trump wins */
    TC_WIN_DOUBLE = 3        /* Hattrick: highest rank in each of the two tricks */
} tc_winner;

typedef struct {
    int n_players;           /* 2..TC_MAX_PLAYERS */
    int follow;              /* tc_follow */
    int winner;              /* tc_winner */
    int trump;               /* trump suit or TC_NO_SUIT */
} tc_rules;

/* The rules' own fields against a deck that passed tc_deck_check: TC_E_PLAYERS,
 * TC_E_FOLLOW, TC_E_WINNER, TC_E_TRUMP, and TC_E_UNPLAYABLE for a deck with
 * suitless cards under a winner rule other than TC_WIN_TRUMP or under
 * TC_FOLLOW_OVERTRUMP (such a card would open a trick with no suit to follow). */
int tc_rules_check(const tc_deck *d, const tc_rules *r);

/* ---- a trick in progress ------------------------------------------------- */
#define TC_LED_NONE (-1)     /* nothing led yet (empty, or lambs only) */
#define TC_LED_TRUMP (-2)    /* a top trump was led with no trump suit; else the trump suit */
#define TC_PILE_PASS 2       /* Hattrick: the card was passed */

typedef struct {
    int n_played;                  /* cards in the trick so far */
    int leader;                    /* seat that played first */
    uint8_t card[TC_MAX_PLAYERS];  /* in play order */
    uint8_t power[TC_MAX_PLAYERS]; /* effective strength (declarations applied) */
    uint8_t decl[TC_MAX_PLAYERS];  /* declaration bit of each move (TC_MOVE_DECL) */
    uint8_t pile[TC_MAX_PLAYERS];  /* Hattrick: 0/1 = which open colour, 2 = passed */
    int8_t led;                    /* led suit, TC_LED_NONE or TC_LED_TRUMP */
    int8_t open[2];                /* Hattrick: open colours, TC_NO_SUIT if none */
    int8_t best[2];                /* index of the current winner (per pile), -1 none */
    uint16_t best_key[2];          /* winning key of best[]: class << 8 | strength order */
    tc_cards cards;                /* every card in the trick */
    int points;                    /* card points in the trick */
} tc_trick;

void tc_trick_start(tc_trick *t, int leader);
static inline int tc_trick_to_move(const tc_trick *t, int n_players) {
    int seat = t->leader + t->n_played;
    return seat >= n_players ? seat - n_players : seat;
}

/* The trick functions below are building blocks for embedders who manage tricks
 * themselves.  They check the cheap things on every call (rules fields, the
 * trick's counters, the card id) and refuse the rest of a bad input with a
 * status; they do not re-run tc_deck_check.  A trick must come from
 * tc_trick_start and tc_trick_add under the same deck and rules. */

/* Legal cards from `hand` for the seat to move in trick `t` (empty on bad input). */
tc_cards tc_legal(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand);

/* A move is card | decl << 7: decl 0 or 1 for TC_ROLE_DECLARED cards, else 0. */
#define TC_MOVE(card, decl) ((card) | ((decl) << 7))
#define TC_MOVE_CARD(m) ((m) & 127)
#define TC_MOVE_DECL(m) (((m) >> 7) & 1)

/* Distinct moves from the legal cards, ascending: declared cards give two moves,
 * twins one.  Returns the count (<= TC_MAX_MOVES; `out` holds TC_MAX_MOVES) or a
 * negative status. */
int tc_moves(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand, uint16_t *out);

/* Add a card to the trick, updating the led category and the winner
 * incrementally.  Does not check the hand or the follow rule (tc_play does);
 * TC_E_STATE when the trick is full, TC_E_CARD for a card outside the deck. */
int tc_trick_add(const tc_deck *d, const tc_rules *r, tc_trick *t, int move);
/* Winning seat of a complete (or partial) trick; for TC_WIN_DOUBLE the winner of
 * pile 0 or 1 (-1 if that pile is empty). */
int tc_trick_winner(const tc_trick *t, int n_players, int pile);
/* Hattrick next leader (sticheln.md H5); -1 for other rules. */
int tc_trick_next_leader(const tc_deck *d, const tc_trick *t, int n_players);
int tc_trick_points(const tc_deck *d, const tc_trick *t);

/* ---- the trick phase of a deal ------------------------------------------ */
/* A play state is valid as tc_play_init made it and tc_play / tc_playout changed
 * it; copying it by value (copy-make search) is fine.  It remembers its rules:
 * the functions below refuse other rules with TC_E_RULES, and must be given the
 * deck it was started with.
 *
 * Every completed trick has a winner: tc_play_init refuses decks, rules and
 * hands under which a trick could be won by nobody (TC_E_UNPLAYABLE).  Should
 * it happen anyway (a different deck passed later), the leader takes the trick,
 * so no seat outside 0..n_players-1 is ever credited or asked to move. */
typedef struct {
    tc_cards hand[TC_MAX_PLAYERS];
    tc_cards won[TC_MAX_PLAYERS];      /* cards of the tricks each seat won */
    tc_cards passed[TC_MAX_PLAYERS];   /* Hattrick pass piles */
    uint8_t tricks[TC_MAX_PLAYERS];    /* tricks won (Hattrick: tricks, up to 2 per double) */
    uint16_t points[TC_MAX_PLAYERS];   /* card points won */
    tc_trick trick;                    /* the trick being played */
    tc_trick last_trick;               /* the last completed trick (n_played 0 if none) */
    int tricks_left;                   /* tricks (double tricks) still to be completed */
    int last_winner;                   /* seat that won the last completed trick, -1 */
    tc_rules rules;                    /* the rules given to tc_play_init */
} tc_play_state;

/* Start the trick phase: hands (n_players sets) are copied; `tricks` tricks (or
 * double tricks) are to be played.  Checks the deck (tc_deck_check), the rules
 * (tc_rules_check), the hands (inside the deck: TC_E_CARD; disjoint, each with
 * at least `tricks` cards: TC_E_HANDS; with TC_WIN_TRUMP fewer always-playable
 * cards among them than seats: TC_E_UNPLAYABLE), the leader (TC_E_SEAT) and
 * `tricks` (0..TC_MAX_CARDS, else TC_E_ARG). */
int tc_play_init(tc_play_state *s, const tc_deck *d, const tc_rules *r, const tc_cards *hands, int leader, int tricks);
/* tc_play_init for a deck that passed tc_deck_check and has not changed since (a deck
 * built only with tc_deck_init, tc_deck_add and tc_deck_set_decl is always one): the
 * deck is not checked again, everything else is.  For callers that start many trick
 * phases with one deck (a binding, a search); the deck check is O(cards). */
int tc_play_init_checked(tc_play_state *s, const tc_deck *d, const tc_rules *r, const tc_cards *hands, int leader,
                         int tricks);
static inline int tc_play_over(const tc_play_state *s) { return s->tricks_left <= 0; }
int tc_play_to_move(const tc_play_state *s, const tc_rules *r);  /* -1 when over */
/* Legal moves of the seat to move (as tc_moves). */
int tc_play_moves(const tc_deck *d, const tc_rules *r, const tc_play_state *s, uint16_t *out);
/* Play a move for the seat to move; checks hand, follow rule and declaration.
 * When the trick completes it is resolved and the next one started. */
int tc_play(const tc_deck *d, const tc_rules *r, tc_play_state *s, int move);

/* Play the rest of the trick phase with uniformly random legal moves (TC_E_STATE
 * if a seat to move has no card). */
int tc_playout(const tc_deck *d, const tc_rules *r, tc_play_state *s, tc_rng *rng);

/* ---- playouts for search ------------------------------------------------- */
/* Policies of the built-in playouts:
 *   TC_POLICY_RANDOM  a uniformly random legal move;
 *   TC_POLICY_GREEDY  take the trick with the weakest move that would win it now if
 *                     there is one, else throw the weakest move (lowest effective
 *                     strength); ties between equal candidates broken at random. */
enum { TC_POLICY_RANDOM = 0, TC_POLICY_GREEDY = 1 };

typedef struct {
    uint32_t n;                         /* playouts run */
    double tricks[TC_MAX_PLAYERS];      /* mean tricks won per seat at the end of the phase */
    double points[TC_MAX_PLAYERS];      /* mean card points won per seat at the end */
} tc_playout_stats;

/* The move `policy` would play for the seat to move (a legal move id, >= 0), for callers
 * that play a phase out themselves and keep its history (trickcore's
 * GameState.finish_trick_phase).  TC_E_ARG for an unknown policy or a NULL pointer,
 * TC_E_RULES as tc_play, TC_E_STATE when the phase is over or the seat has no move. */
int tc_policy_move(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int policy, tc_rng *rng);

/* Run n playouts of copies of `s` to the end of its trick phase (s is not changed)
 * and fill *out with the per-seat means (totals of the phase: tricks and points
 * won before `s` count too).  Seeded by `rng` (advanced), so reproducible.
 * TC_E_ARG for n < 1, an unknown policy or a NULL pointer; TC_E_RULES as tc_play. */
int tc_playouts(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int n, int policy, tc_rng *rng,
                tc_playout_stats *out);
/* Evaluate every legal move of the seat to move: n playouts after each.  moves[]
 * (TC_MAX_MOVES) and out[] (TC_MAX_MOVES) get one entry per move, in tc_play_moves
 * order; returns the number of moves (0 when the phase is over) or a status. */
int tc_playouts_per_move(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int n, int policy,
                         tc_rng *rng, uint16_t *moves, tc_playout_stats *out);

/* ---- perft --------------------------------------------------------------- */
/* Leaf sums over every complete play sequence ("scored perft"). */
typedef struct {
    uint64_t leaves;
    uint64_t tricks[TC_MAX_PLAYERS];
    uint64_t points[TC_MAX_PLAYERS];
} tc_perft_stats;

/* Number of legal move sequences of length `depth` (or to the end of the trick
 * phase if it comes first); stats (may be NULL) sums tricks and points over the
 * leaves.  depth < 0 means to the end.  0 for bad arguments (a NULL pointer,
 * rules the state was not started with). */
uint64_t tc_perft(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int depth, tc_perft_stats *stats);

/* ---- Beim Jupiter: the end of a round ------------------------------------- */
/* The distribution of the colour cards (rules 7.2-7.8 of docs/rules/beim_jupiter.md,
 * decisions A-21..A-26, A-37) and the removal of the cards at count t (rule 8.1).
 * Cards are ids of the round's deck: a colour card is a number card, suited with
 * its value as rank (tc_deck_add(d, suit, value, ...), as the game builds them). */
#define TC_BJ_MAX_COUNT 12   /* trick-count cards 1..12: bids, trick counts, t (rule 3) */
enum { TC_BJ_NONE = -1, TC_BJ_A = 0, TC_BJ_B = 1, TC_BJ_C = 2 };  /* categories, rule 7.3 */

typedef struct {
    int n_players;                     /* 1..TC_MAX_PLAYERS */
    int start;                         /* the start player: seat order of rule 7.6 */
    int t;                             /* the round's count t, 1..TC_BJ_MAX_COUNT (rule 8.1) */
    uint8_t bid[TC_MAX_PLAYERS];       /* T_p, 1..TC_BJ_MAX_COUNT; 0 for ZERO (rule 5.6) */
    uint8_t locked[TC_MAX_PLAYERS];    /* 1 for a locked bid (never with ZERO) */
    uint8_t colour[TC_MAX_PLAYERS];    /* p's colour card of this round */
    uint8_t tricks[TC_MAX_PLAYERS];    /* k_p, 0..TC_BJ_MAX_COUNT */
    uint16_t points[TC_MAX_PLAYERS];   /* pts_p, the trick points won */
    int n_table;                       /* cards lying at trick-count cards, 0..TC_MAX_CARDS: */
    uint8_t card[TC_MAX_CARDS];        /*   each card (this round's bid cards and older ones; */
    uint8_t count[TC_MAX_CARDS];       /*   not a ZERO bidder's) and its count, 1..12 */
} tc_bj_round;

typedef struct {
    int8_t category[TC_MAX_PLAYERS];   /* TC_BJ_A/B/C; TC_BJ_NONE for a ZERO bidder (and seats
                                          from n_players on) */
    int8_t zero[TC_MAX_PLAYERS];       /* a ZERO bidder: 1 if he won his card (k_p = 0), 0 if it
                                          left the game; -1 for every other seat (rule 7.2) */
    int16_t won[TC_MAX_PLAYERS];       /* the victory card each seat gains, -1 for none: his pick
                                          or his ZERO card (a seat gains at most one) */
    int n_picks;                       /* the picks in order: counts ascending, each count's
                                          claimants in the order of rule 7.6 */
    uint8_t pick_seat[TC_MAX_PLAYERS], pick_count[TC_MAX_PLAYERS], pick_card[TC_MAX_PLAYERS];
    int n_left;                        /* cards not taken (rule 7.8), counts ascending, at one */
    uint8_t left_card[TC_MAX_CARDS];   /*   count in the order of the input table */
    uint8_t left_count[TC_MAX_CARDS];
    int n_removed;                     /* cards leaving the game: the failed ZERO bidders' cards */
    uint8_t removed[TC_MAX_CARDS];     /*   in seat order, then the cards left at t (rule 8.1) */
    int n_table;                       /* the table carried into the next round: the left cards */
    uint8_t table_card[TC_MAX_CARDS];  /*   without those at t, in the same order */
    uint8_t table_count[TC_MAX_CARDS];
} tc_bj_distribution;

/* Distribute the colour cards of a round that ended: `in` as the round left them,
 * the result in *out.  Each claimant takes the available card of the highest
 * value at his count, an A claimant's own card first among equal values, then the
 * lower suit (in a deck where two cards share value and suit, the earlier table
 * entry).  Refused, with *out unchanged: TC_E_ARG for a NULL pointer, t or a bid
 * or trick count outside its range, a locked ZERO bid, a card on the table twice
 * or at a count outside 1..12, two seats with one colour card, or a colour card
 * that does not lie at its seat's bid (a ZERO bidder's on the table); TC_E_PLAYERS,
 * TC_E_SEAT (start); TC_E_CARD for a card outside the deck or not a number card. */
int tc_bj_distribute(const tc_deck *d, const tc_bj_round *in, tc_bj_distribution *out);

/* ---- the reference game (benchmark) -------------------------------------- */
/* 4 players x 13 cards of a 52-card deck (ids suit*13+rank), a trump suit,
 * must follow suit, uniformly random legal card.  Fills `d`. */
void tc_reference_deck(tc_deck *d);
/* Deal from rng with trump rng-chosen, play out, return total tricks (always 13)
 * and add the tricks per seat into tricks_out (may be NULL). */
int tc_reference_playout(const tc_deck *d, tc_rng *rng, uint32_t *tricks_out);

#ifdef __cplusplus
}
#endif
#endif /* TRICKCORE_H */
