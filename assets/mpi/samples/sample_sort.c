/* Sample sort with the collectives whose counts differ per rank. Rank 0 deals out uneven shares of
 * pseudo-random keys (MPI_Scatterv: rank r gets a share proportional to r + 1); each rank sorts
 * its share and contributes r + 1 samples (MPI_Allgatherv) from which every rank picks the same
 * splitters; the buckets travel with MPI_Alltoallv (their counts first, with MPI_Alltoall); each
 * rank sorts what it got, checks the order across its neighbours on a non-periodic chain (the ends
 * talk to MPI_PROC_NULL), and rank 0 collects everything (MPI_Gatherv) and checks it. Then the
 * ranks split into two halves (MPI_Comm_split), and each half sums its key counts
 * (MPI_Allreduce), broadcasts its first rank's smallest key (MPI_Bcast) and meets at a barrier.
 * The whole is repeated ROUNDS times; the keys depend on the round and the rank only, so every
 * run moves the same bytes.
 *   mpirun -np 4 sample_sort [KEYS_PER_RANK=20000] [ROUNDS=4] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int compare(const void *a, const void *b) {
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

static unsigned next_key(unsigned long long *state) {
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(*state >> 33);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int per_rank = argc > 1 ? atoi(argv[1]) : 20000;
    int rounds = argc > 2 ? atoi(argv[2]) : 4;
    int total = per_rank * size;
    int *share = malloc(sizeof(int) * (size_t)size), *offset = malloc(sizeof(int) * (size_t)size);
    int *send_n = malloc(sizeof(int) * (size_t)size), *send_at = malloc(sizeof(int) * (size_t)size);
    int *recv_n = malloc(sizeof(int) * (size_t)size), *recv_at = malloc(sizeof(int) * (size_t)size);
    unsigned *all = malloc(sizeof(unsigned) * (size_t)total), *mine = malloc(sizeof(unsigned) * (size_t)total);
    unsigned *got = malloc(sizeof(unsigned) * (size_t)total);
    int n_samples = size * (size + 1) / 2;
    unsigned *samples = malloc(sizeof(unsigned) * (size_t)n_samples), *splitters = malloc(sizeof(unsigned) * (size_t)size);
    if (!share || !offset || !send_n || !send_at || !recv_n || !recv_at || !all || !mine || !got || !samples ||
        !splitters)
        MPI_Abort(MPI_COMM_WORLD, 2);
    /* Shares proportional to rank + 1, the remainder to the last rank. */
    int dealt = 0;
    for (int r = 0; r < size; r++) {
        share[r] = (int)((long long)total * (r + 1) / n_samples);
        offset[r] = dealt;
        dealt += share[r];
    }
    share[size - 1] += total - dealt;
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2 ? 0 : 1, rank, &half);
    long long half_keys = 0;
    for (int round = 0; round < rounds; round++) {
        if (rank == 0) {
            unsigned long long state = 12345ULL + (unsigned long long)round;
            for (int i = 0; i < total; i++) all[i] = next_key(&state);
        }
        int n = share[rank];
        MPI_Scatterv(all, share, offset, MPI_UNSIGNED, mine, n, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
        qsort(mine, (size_t)n, sizeof(unsigned), compare);
        /* Rank r contributes r + 1 evenly spaced samples. */
        unsigned own_samples[1024];
        int k = rank + 1 < 1024 ? rank + 1 : 1024;
        for (int i = 0; i < k; i++) own_samples[i] = n > 0 ? mine[(size_t)n * (size_t)i / (size_t)k] : 0;
        for (int r = 0, at = 0; r < size; r++) {
            recv_n[r] = r + 1 < 1024 ? r + 1 : 1024;
            recv_at[r] = at;
            at += recv_n[r];
        }
        MPI_Allgatherv(own_samples, k, MPI_UNSIGNED, samples, recv_n, recv_at, MPI_UNSIGNED, MPI_COMM_WORLD);
        qsort(samples, (size_t)n_samples, sizeof(unsigned), compare);
        for (int r = 1; r < size; r++) splitters[r - 1] = samples[(size_t)n_samples * (size_t)r / (size_t)size];
        /* Buckets: keys below splitter b go to rank b. */
        for (int r = 0; r < size; r++) send_n[r] = 0;
        for (int i = 0, b = 0; i < n; i++) {
            while (b < size - 1 && mine[i] >= splitters[b]) b++;
            send_n[b]++;
        }
        for (int r = 0, at = 0; r < size; r++) {
            send_at[r] = at;
            at += send_n[r];
        }
        MPI_Alltoall(send_n, 1, MPI_INT, recv_n, 1, MPI_INT, MPI_COMM_WORLD);
        int m = 0;
        for (int r = 0; r < size; r++) {
            recv_at[r] = m;
            m += recv_n[r];
        }
        MPI_Alltoallv(mine, send_n, send_at, MPI_UNSIGNED, got, recv_n, recv_at, MPI_UNSIGNED, MPI_COMM_WORLD);
        qsort(got, (size_t)m, sizeof(unsigned), compare);
        /* Order across neighbours: my smallest key is not below my left neighbour's largest. */
        unsigned my_max = m > 0 ? got[m - 1] : 0, left_max = 0;
        MPI_Request reqs[2];
        MPI_Irecv(&left_max, 1, MPI_UNSIGNED, left, 7, MPI_COMM_WORLD, &reqs[0]);
        MPI_Isend(&my_max, 1, MPI_UNSIGNED, right, 7, MPI_COMM_WORLD, &reqs[1]);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
        if (left != MPI_PROC_NULL && m > 0 && got[0] < left_max) {
            fprintf(stderr, "rank %d: key %u below its left neighbour's %u\n", rank, got[0], left_max);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        /* Rank 0 collects the sorted keys. */
        MPI_Gather(&m, 1, MPI_INT, recv_n, 1, MPI_INT, 0, MPI_COMM_WORLD);
        for (int r = 0, at = 0; rank == 0 && r < size; r++) {
            recv_at[r] = at;
            at += recv_n[r];
        }
        MPI_Gatherv(got, m, MPI_UNSIGNED, all, recv_n, recv_at, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            for (int i = 1; i < total; i++) {
                if (all[i - 1] > all[i]) {
                    fprintf(stderr, "round %d: keys out of order at %d\n", round, i);
                    MPI_Abort(MPI_COMM_WORLD, 1);
                }
            }
        }
        /* Each half: its key count, its first rank's smallest key, a barrier. */
        long long count = m, sum = 0;
        MPI_Allreduce(&count, &sum, 1, MPI_LONG_LONG, MPI_SUM, half);
        unsigned smallest = m > 0 ? got[0] : 0;
        MPI_Bcast(&smallest, 1, MPI_UNSIGNED, 0, half);
        MPI_Barrier(half);
        half_keys += sum;
    }
    long long both = 0, mine_half = rank == 0 || rank == size / 2 ? half_keys : 0;
    MPI_Allreduce(&mine_half, &both, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        if (both != (long long)total * rounds) {
            fprintf(stderr, "the halves hold %lld keys, expected %lld\n", both, (long long)total * rounds);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        printf("sample_sort: %d ranks, %d keys, %d rounds sorted\n", size, total, rounds);
    }
    MPI_Comm_free(&half);
    free(share), free(offset), free(send_n), free(send_at), free(recv_n), free(recv_at);
    free(all), free(mine), free(got), free(samples), free(splitters);
    MPI_Finalize();
    return 0;
}
