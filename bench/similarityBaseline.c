/* The machine's own limit for a similarity search: a plain C scan over the same packed
 * fingerprints the service holds, with the Swamidass-Baldi popcount bound, every hit
 * counted. Built by bench/search.ts with gcc -O3 -march=native, one process per core.
 *
 * usage: similarityBaseline FILE SECONDS THRESHOLD
 * FILE: u32 rows, u32 queries, u32 words, then rows + queries fingerprints of `words` u32.
 * prints: searches hits comparisons (over SECONDS of repeated searches, queries in turn). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 2;
  uint32_t head[3];
  if (fread(head, 4, 3, f) != 3) return 2;
  uint32_t n = head[0], nq = head[1], words = head[2], w64 = words / 2;
  uint64_t *fps = malloc((size_t)(n + nq) * words * 4);
  if (fread(fps, 4, (size_t)(n + nq) * words, f) != (size_t)(n + nq) * words) return 2;
  fclose(f);
  uint32_t *counts = malloc(n * 4);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t b = 0;
    for (uint32_t k = 0; k < w64; k++) b += __builtin_popcountll(fps[(size_t)i * w64 + k]);
    counts[i] = b;
  }
  double seconds = atof(argv[2]), threshold = atof(argv[3]);
  long searches = 0, hits = 0, compared = 0;
  double start = now();
  /* SECONDS 0: each query once (the hits to compare with the service's). */
  while (seconds > 0 ? now() - start < seconds : searches < nq) {
    const uint64_t *q = fps + (size_t)(n + searches % nq) * w64;
    uint32_t a = 0;
    for (uint32_t k = 0; k < w64; k++) a += __builtin_popcountll(q[k]);
    uint32_t low = (uint32_t)ceil(a * threshold - 1e-9), high = (uint32_t)floor(a / threshold + 1e-9);
    if (low < 1) low = 1;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t b = counts[i];
      if (b < low || b > high) continue;
      const uint64_t *p = fps + (size_t)i * w64;
      uint32_t c = 0;
      for (uint32_t k = 0; k < w64; k++) c += __builtin_popcountll(p[k] & q[k]);
      compared++;
      if ((double)c / (a + b - c) >= threshold) hits++;
    }
    searches++;
  }
  printf("%ld %ld %ld %f\n", searches, hits, compared, now() - start);
  return 0;
}
