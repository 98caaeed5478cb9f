/* An allreduce loop: for each size from 8 B to MAX bytes (of doubles), doubling, a warm-up and
 * then ITERATIONS MPI_Allreduce sums (fewer for large vectors: ITERATIONS × 8 KiB / (size +
 * 8 KiB), at least 4), timed with MPI_Wtime. Rank 0 prints one line per size in the form hase
 * reads:
 *   hase-time allreduce <bytes> <calls> <seconds>
 *   mpirun -np 2 allreduce_loop [ITERATIONS=1000] [MAX=1048576] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long iterations = argc > 1 ? atol(argv[1]) : 1000;
    long max = argc > 2 ? atol(argv[2]) : 1048576;
    long count_max = max / 8 > 1 ? max / 8 : 1;
    double *in = malloc(sizeof(double) * (size_t)count_max), *out = malloc(sizeof(double) * (size_t)count_max);
    if (in == NULL || out == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
    for (long i = 0; i < count_max; i++) in[i] = (double)(rank + i);
    for (long bytes = 8; bytes <= max; bytes *= 2) {
        long n = iterations * 8192 / (bytes + 8192);
        if (n < 4) n = 4;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = 0.0;
        for (long i = -1; i < n; i++) { /* call -1 is the warm-up */
            if (i == 0) t0 = MPI_Wtime();
            MPI_Allreduce(in, out, (int)(bytes / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0) printf("hase-time allreduce %ld %ld %.9f\n", bytes, n, t);
    }
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
