/* IDA* with Manhattan distance for the 15-puzzle, the C yardstick of bench_sliding.py.
 *
 * The same shape as parallel_backtrack/sliding/kernel.py: an explicit stack of per-depth
 * move counters (no recursion), the blank's moves in the order UP, LEFT, RIGHT, DOWN,
 * no move back, Manhattan updated by the one tile that moved, and Korf's node count
 * (every child generated over all iterations, plus 1 for the root).  Goal: blank first
 * (0 1 2 ... 15).  Input: lines of 16 tiles on stdin; output per line:
 * "length nodes seconds".  Built by the benchmark with cc -O2.
 */
#include <stdio.h>
#include <stdint.h>
#include <time.h>

#define N 16
#define MAXD 200

static int md[N][N];  /* md[tile][cell] */
static int nb[N][4];  /* the blank's target cell per move, -1 off the board */

static void setup(void) {
    for (int t = 0; t < N; t++)
        for (int c = 0; c < N; c++) {
            int dr = c / 4 - t / 4, dc = c % 4 - t % 4;
            md[t][c] = t ? (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc) : 0;
        }
    for (int c = 0; c < N; c++) {
        int r = c / 4, k = c % 4;
        nb[c][0] = r > 0 ? c - 4 : -1;
        nb[c][1] = k > 0 ? c - 1 : -1;
        nb[c][2] = k < 3 ? c + 1 : -1;
        nb[c][3] = r < 3 ? c + 4 : -1;
    }
}

/* One pass below bound; returns the goal depth or -1, adds to *nodes, sets *next. */
static int pass(int8_t *tiles, int blank0, int h0, int bound, int64_t *nodes, int *next) {
    int blanks[MAXD + 1], dirs[MAXD + 1], hs[MAXD + 1], path[MAXD];
    int depth = 0;
    int64_t count = 0;
    blanks[0] = blank0; dirs[0] = 0; hs[0] = h0;
    while (depth >= 0) {
        int d = dirs[depth];
        if (d == 4) {
            if (depth > 0) {
                int a = blanks[depth - 1], b = blanks[depth];
                tiles[b] = tiles[a]; tiles[a] = 0;
            }
            depth--;
            continue;
        }
        dirs[depth] = d + 1;
        int prev = depth > 0 ? path[depth - 1] : -1;
        int a = blanks[depth], b = nb[a][d];
        if (b < 0 || d == 3 - prev) continue;
        count++;
        int t = tiles[b];
        int h = hs[depth] + md[t][a] - md[t][b];
        int f = depth + 1 + h;
        if (f > bound) { if (f < *next) *next = f; continue; }
        tiles[a] = t; tiles[b] = 0;
        path[depth] = d;
        depth++;
        blanks[depth] = b; hs[depth] = h; dirs[depth] = 0;
        if (h == 0) { *nodes += count; return depth; }
    }
    *nodes += count;
    return -1;
}

int main(void) {
    setup();
    int v[N];
    while (1) {
        for (int i = 0; i < N; i++)
            if (scanf("%d", &v[i]) != 1) return 0;
        int8_t tiles[N];
        int blank = 0, h = 0;
        for (int i = 0; i < N; i++) {
            tiles[i] = (int8_t)v[i];
            if (!v[i]) blank = i;
            h += md[v[i]][i];
        }
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int64_t nodes = 1;
        int bound = h, found = h == 0 ? 0 : -1;
        while (found < 0) {
            int next = 1 << 30;
            found = pass(tiles, blank, h, bound, &nodes, &next);
            bound = next;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
        printf("%d %lld %.6f\n", found, (long long)nodes, s);
        fflush(stdout);
    }
}
