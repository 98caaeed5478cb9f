/* An alltoall loop: for each block size from 8 B to MAX bytes per destination, doubling, a
 * warm-up and then ITERATIONS MPI_Alltoall calls (fewer for large blocks: ITERATIONS × 8 KiB /
 * (size + 8 KiB), at least 4), timed with MPI_Wtime. Rank 0 prints one line per size in the form
 * hase reads:
 *   hase-time alltoall <bytes per destination> <calls> <seconds>
 *   mpirun -np 2 alltoall_loop [ITERATIONS=1000] [MAX=1048576] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long iterations = argc > 1 ? atol(argv[1]) : 1000;
    long max = argc > 2 ? atol(argv[2]) : 1048576;
    size_t room = (size_t)(max > 8 ? max : 8) * (size_t)size;
    char *out = malloc(room), *in = malloc(room);
    if (out == NULL || in == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
    memset(out, rank, room);
    for (long bytes = 8; bytes <= max; bytes *= 2) {
        long n = iterations * 8192 / (bytes + 8192);
        if (n < 4) n = 4;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = 0.0;
        for (long i = -1; i < n; i++) { /* call -1 is the warm-up */
            if (i == 0) t0 = MPI_Wtime();
            MPI_Alltoall(out, (int)bytes, MPI_BYTE, in, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0) printf("hase-time alltoall %ld %ld %.9f\n", bytes, n, t);
    }
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
