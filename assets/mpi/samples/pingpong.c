/* Ping-pong between ranks 0 and 1 (other ranks wait at the final barrier): for each message size
 * from 8 B to MAX bytes, doubling, a warm-up and then ITERATIONS round trips (fewer for large
 * messages: ITERATIONS × 8 KiB / (size + 8 KiB), at least 4), timed with MPI_Wtime. Rank 0 prints
 * one line per size in the form hase reads (`hase mpi predict --measure`, docs/datasheets.md):
 *   hase-time pingpong <bytes> <round trips> <seconds>
 *   mpirun -np 2 pingpong [ITERATIONS=1000] [MAX=1048576] */
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
    char *buf = malloc((size_t)(max > 8 ? max : 8));
    if (buf == NULL || size < 2) MPI_Abort(MPI_COMM_WORLD, 2);
    memset(buf, 1, (size_t)(max > 8 ? max : 8));
    for (long bytes = 8; bytes <= max; bytes *= 2) {
        long n = iterations * 8192 / (bytes + 8192);
        if (n < 4) n = 4;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = 0.0;
        for (long i = -1; i < n; i++) { /* round trip -1 is the warm-up */
            if (i == 0) t0 = MPI_Wtime();
            if (rank == 0) {
                MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0) printf("hase-time pingpong %ld %ld %.9f\n", bytes, n, t);
    }
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
