/* The C yardstick for the Connect-Four benchmark: the same algorithm as
 * parallel_backtrack/games/connect4/kernel/search.py (Pascal Pons' solver: bitboards, negamax
 * alpha-beta, non-losing moves, threat ordering centre-first, an always-replace
 * table of uint64 entries (key mod 2^56) << 8 | value, null-window probes).
 *
 * usage: c4_solver WIDTH HEIGHT TT_MB < positions
 * Reads one "moves [expected]" per line; prints "score nodes microseconds" per line.
 * The table is cleared before each position, as the Python benchmark does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int W, H, CELLS, LO, SPAN;
static uint64_t BOTTOM, FULL, COLMASK[16];
static int ORDER[16];
#define KEY_MASK ((1ULL << 56) - 1)
static uint64_t *TABLE;
static uint64_t SIZE, NODES;

static int popcount(uint64_t x) { return __builtin_popcountll(x); }

static uint64_t winning_cells(uint64_t s, uint64_t mask) {
    uint64_t r = (s << 1) & (s << 2) & (s << 3), p;
    int shifts[3] = {H + 1, H, H + 2};
    for (int i = 0; i < 3; i++) {
        int k = shifts[i];
        p = (s << k) & (s << 2 * k);
        r |= p & (s << 3 * k);
        r |= p & (s >> k);
        p = (s >> k) & (s >> 2 * k);
        r |= p & (s << k);
        r |= p & (s >> 3 * k);
    }
    return r & (FULL ^ mask);
}

static uint64_t non_losing(uint64_t cur, uint64_t mask) {
    uint64_t possible = (mask + BOTTOM) & FULL;
    uint64_t threats = winning_cells(cur ^ mask, mask);
    uint64_t forced = possible & threats;
    if (forced) {
        if (forced & (forced - 1)) return 0;
        possible = forced;
    }
    return possible & ~(threats >> 1);
}

static int negamax(uint64_t cur, uint64_t mask, int plies, int alpha, int beta) {
    NODES++;
    uint64_t next = non_losing(cur, mask);
    if (!next) return -((CELLS - plies) / 2);
    if (plies >= CELLS - 2) return 0;
    int low = -((CELLS - 2 - plies) / 2);
    if (alpha < low) { alpha = low; if (alpha >= beta) return alpha; }
    int high = (CELLS - 1 - plies) / 2;
    uint64_t key = cur + mask, slot = key % SIZE;
    uint64_t entry = TABLE[slot];
    if (entry >> 8 == (key & KEY_MASK) && (entry & 0xFF)) {
        int v = (int)(entry & 0xFF);
        if (v > SPAN) {
            int bound = v - SPAN + LO - 1;
            if (alpha < bound) { alpha = bound; if (alpha >= beta) return alpha; }
        } else if (v + LO - 1 < high) {
            high = v + LO - 1;
        }
    }
    if (beta > high) { beta = high; if (alpha >= beta) return beta; }
    uint64_t moves[16];
    int scores[16], n = 0;
    for (int i = 0; i < W; i++) {
        uint64_t move = next & COLMASK[ORDER[i]];
        if (!move) continue;
        int score = popcount(winning_cells(cur | move, mask)), pos = n++;
        while (pos > 0 && scores[pos - 1] < score) {
            scores[pos] = scores[pos - 1];
            moves[pos] = moves[pos - 1];
            pos--;
        }
        scores[pos] = score;
        moves[pos] = move;
    }
    for (int i = 0; i < n; i++) {
        int score = -negamax(cur ^ mask, mask | moves[i], plies + 1, -beta, -alpha);
        if (score >= beta) {
            TABLE[slot] = (key & KEY_MASK) << 8 | (uint64_t)(score - LO + 1 + SPAN);
            return score;
        }
        if (score > alpha) alpha = score;
    }
    TABLE[slot] = (key & KEY_MASK) << 8 | (uint64_t)(alpha - LO + 1);
    return alpha;
}

static int half(int x) { return x / 2; } /* C rounds towards zero */

static int solve(uint64_t cur, uint64_t mask, int plies) {
    if (winning_cells(cur, mask) & (mask + BOTTOM) & FULL) return (CELLS + 1 - plies) / 2;
    int low = -((CELLS - plies) / 2), high = (CELLS + 1 - plies) / 2;
    while (low < high) {
        int med = low + (high - low) / 2;
        if (med <= 0 && half(low) < med) med = half(low);
        else if (med >= 0 && half(high) > med) med = half(high);
        int r = negamax(cur, mask, plies, med, med + 1);
        if (r <= med) high = r; else low = r;
    }
    return low;
}

static int is_prime(uint64_t n) {
    for (uint64_t d = 3; d * d <= n; d += 2)
        if (n % d == 0) return 0;
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s WIDTH HEIGHT TT_MB\n", argv[0]); return 2; }
    W = atoi(argv[1]); H = atoi(argv[2]);
    double mb = atof(argv[3]);
    CELLS = W * H;
    LO = -(CELLS / 2) - 1;
    SPAN = ((CELLS + 1) / 2 + 1) - LO + 1;
    for (int c = 0; c < W; c++) {
        BOTTOM |= 1ULL << (c * (H + 1));
        COLMASK[c] = ((1ULL << H) - 1) << (c * (H + 1));
    }
    FULL = BOTTOM * ((1ULL << H) - 1);
    for (int d = 0, k = 0; d < W; d++) { /* centre first, left before right */
        int best = -1;
        for (int c = 0; c < W; c++) {
            int used = 0;
            for (int j = 0; j < k; j++) used |= ORDER[j] == c;
            if (used) continue;
            if (best < 0 || abs(2 * c - (W - 1)) < abs(2 * best - (W - 1))) best = c;
        }
        ORDER[k++] = best;
    }
    SIZE = ((uint64_t)(mb * 1048576.0) / 8) | 1;
    if (SIZE < 3) SIZE = 3;
    while (!is_prime(SIZE)) SIZE -= 2;
    int bits = (H + 1) * W; /* the slot and 56 key bits must tell every key apart */
    uint64_t floor = bits > 56 ? 1ULL << (bits - 56) : 1;
    if (SIZE < floor) {
        SIZE = floor | 1;
        while (!is_prime(SIZE)) SIZE += 2;
    }
    TABLE = calloc(SIZE, sizeof(uint64_t));
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        char moves[128] = "";
        if (sscanf(line, "%127s", moves) != 1) continue;
        uint64_t cur = 0, mask = 0;
        int plies = 0;
        for (char *m = moves; *m; m++, plies++) {
            int c = *m - '1';
            cur ^= mask;
            mask |= mask + (1ULL << (c * (H + 1)));
        }
        memset(TABLE, 0, SIZE * sizeof(uint64_t));
        NODES = 0;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int score = solve(cur, mask, plies);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double us = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3;
        printf("%d %llu %.1f\n", score, (unsigned long long)NODES, us);
        fflush(stdout);
    }
    return 0;
}
