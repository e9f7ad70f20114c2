# Extern declarations of csrc/include/trickcore.h, and nothing else.
from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, uint32_t, uint64_t

cdef extern from "trickcore.h" nogil:
    enum:
        TC_MAX_CARDS
        TC_MAX_SUITS
        TC_MAX_PLAYERS
        TC_NO_SUIT
        TC_MAX_MOVES
        TC_OK
        TC_E_CARD
        TC_E_NOT_IN_HAND
        TC_E_ILLEGAL
        TC_E_PLAYERS
        TC_E_DECL
        TC_E_STATE
        TC_E_ARG
        TC_E_FULL
        TC_E_SUIT
        TC_E_VALUE
        TC_E_ROLE
        TC_E_STRENGTH
        TC_E_TWIN
        TC_E_DECK
        TC_E_FOLLOW
        TC_E_WINNER
        TC_E_TRUMP
        TC_E_UNPLAYABLE
        TC_E_HANDS
        TC_E_SEAT
        TC_E_RULES
        TC_STATUS_MIN
        TC_ROLE_ALWAYS
        TC_ROLE_TOP_TRUMP
        TC_ROLE_DECLARED
        TC_ROLE_TWIN
        TC_FOLLOW_FREE
        TC_FOLLOW_SUIT
        TC_FOLLOW_OVERTRUMP
        TC_FOLLOW_DOUBLE
        TC_WIN_TRUMP
        TC_WIN_OFFLEAD_HIGH
        TC_WIN_OFFLEAD_LOW
        TC_WIN_DOUBLE
        TC_LED_NONE
        TC_LED_TRUMP
        TC_PILE_PASS

    const char *tc_strerror(int status)
    const char *tc_version()

    ctypedef struct tc_cards:
        uint64_t w[2]

    tc_cards tc_cards_empty()
    tc_cards tc_cards_of(int card)
    tc_cards tc_or(tc_cards a, tc_cards b)
    tc_cards tc_and(tc_cards a, tc_cards b)
    tc_cards tc_minus(tc_cards a, tc_cards b)
    int tc_is_empty(tc_cards a)
    int tc_has(tc_cards a, int card)
    int tc_count(tc_cards a)
    int tc_first(tc_cards a)
    int tc_last(tc_cards a)
    int tc_nth(tc_cards a, int n)
    int tc_next(tc_cards a, int after)
    int tc_to_array(tc_cards a, uint8_t *out)

    ctypedef struct tc_rng:
        uint64_t s[4]
    void tc_rng_seed(tc_rng *rng, uint64_t seed)
    uint64_t tc_rng_next(tc_rng *rng)
    uint32_t tc_rng_below(tc_rng *rng, uint32_t n)
    void tc_shuffle(tc_rng *rng, uint8_t *a, int len)
    int tc_deal(tc_rng *rng, tc_cards cards, int n_players, int hand_size, tc_cards *hands, tc_cards *rest)

    ctypedef struct tc_deck:
        int n_suits
        int n_cards
        int8_t suit[128]
        uint8_t rank[128]
        uint8_t strength[128]
        uint8_t trump_strength[128]
        uint8_t points[128]
        uint8_t role[128]
        uint8_t decl_strength[2]
        tc_cards all
        tc_cards suit_mask[8]
        tc_cards always
        tc_cards top_trump
        tc_cards declared
        tc_cards twin
    int tc_deck_init(tc_deck *d, int n_suits)
    int tc_deck_add(tc_deck *d, int suit, int rank, int strength, int trump_strength, int points, int role)
    int tc_deck_set_decl(tc_deck *d, int strength0, int strength1)
    int tc_deck_check(const tc_deck *d)

    ctypedef struct tc_rules:
        int n_players
        int follow
        int winner
        int trump

    int tc_rules_check(const tc_deck *d, const tc_rules *r)
    ctypedef struct tc_trick:
        int n_played
        int leader
        uint8_t card[8]
        uint8_t power[8]
        uint8_t decl[8]
        uint8_t pile[8]
        int8_t led
        int8_t open[2]
        int8_t best[2]
        uint16_t best_key[2]
        tc_cards cards
        int points

    void tc_trick_start(tc_trick *t, int leader)
    int tc_trick_to_move(const tc_trick *t, int n_players)
    tc_cards tc_legal(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand)
    int tc_moves(const tc_deck *d, const tc_rules *r, const tc_trick *t, tc_cards hand, uint16_t *out)
    int tc_trick_add(const tc_deck *d, const tc_rules *r, tc_trick *t, int move)
    int tc_trick_winner(const tc_trick *t, int n_players, int pile)
    int tc_trick_next_leader(const tc_deck *d, const tc_trick *t, int n_players)
    int tc_trick_points(const tc_deck *d, const tc_trick *t)

    ctypedef struct tc_play_state:
        tc_cards hand[8]
        tc_cards won[8]
        tc_cards passed[8]
        uint8_t tricks[8]
        uint16_t points[8]
        tc_trick trick
        tc_trick last_trick
        int tricks_left
        int last_winner
        tc_rules rules

    int tc_play_init(tc_play_state *s, const tc_deck *d, const tc_rules *r, const tc_cards *hands, int leader,
                     int tricks)
    int tc_play_init_checked(tc_play_state *s, const tc_deck *d, const tc_rules *r, const tc_cards *hands,
                             int leader, int tricks)
    int tc_play_over(const tc_play_state *s)
    int tc_play_to_move(const tc_play_state *s, const tc_rules *r)
    int tc_play_moves(const tc_deck *d, const tc_rules *r, const tc_play_state *s, uint16_t *out)
    int tc_play(const tc_deck *d, const tc_rules *r, tc_play_state *s, int move)
    int tc_playout(const tc_deck *d, const tc_rules *r, tc_play_state *s, tc_rng *rng)

    ctypedef struct tc_perft_stats:
        uint64_t leaves
        uint64_t tricks[8]
        uint64_t points[8]
    enum:
        TC_POLICY_RANDOM
        TC_POLICY_GREEDY
    ctypedef struct tc_playout_stats:
        uint32_t n
        double tricks[8]
        double points[8]
    int tc_policy_move(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int policy, tc_rng *rng)
    int tc_playouts(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int n, int policy, tc_rng *rng,
                    tc_playout_stats *out)
    int tc_playouts_per_move(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int n, int policy,
                             tc_rng *rng, uint16_t *moves, tc_playout_stats *out)
    uint64_t tc_perft(const tc_deck *d, const tc_rules *r, const tc_play_state *s, int depth, tc_perft_stats *stats)

    enum:
        TC_BJ_MAX_COUNT
        TC_BJ_NONE
        TC_BJ_A
        TC_BJ_B
        TC_BJ_C
    ctypedef struct tc_bj_round:
        int n_players
        int start
        int t
        uint8_t bid[8]
        uint8_t locked[8]
        uint8_t colour[8]
        uint8_t tricks[8]
        uint16_t points[8]
        int n_table
        uint8_t card[128]
        uint8_t count[128]
    ctypedef struct tc_bj_distribution:
        int8_t category[8]
        int8_t zero[8]
        int16_t won[8]
        int n_picks
        uint8_t pick_seat[8]
        uint8_t pick_count[8]
        uint8_t pick_card[8]
        int n_left
        uint8_t left_card[128]
        uint8_t left_count[128]
        int n_removed
        uint8_t removed[128]
        int n_table
        uint8_t table_card[128]
        uint8_t table_count[128]
    int tc_bj_distribute(const tc_deck *d, const tc_bj_round *r, tc_bj_distribution *out)

    void tc_reference_deck(tc_deck *d)
    int tc_reference_playout(const tc_deck *d, tc_rng *rng, uint32_t *tricks_out)
