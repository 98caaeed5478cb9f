/* A 1-D halo exchange with little computation: every iteration does WORK multiply-adds per
 * element of a block of BYTES, then swaps BYTES with both ring neighbours (Irecv, Isend, Waitall):
 * MESSAGES messages each way, the even ones to the next rank and the odd ones to the previous
 * (with 2, one to each neighbour; at np = 2 both neighbours are the same rank, so MESSAGES
 * messages of one pair are in flight at once). The communication of every iteration is timed
 * with MPI_Wtime and summed; rank 0 prints it in the form hase reads:
 *   hase-time halo <bytes> <iterations> <seconds of communication>
 *   mpirun -np 2 halo_comm [ITERATIONS=2000] [BYTES=4096] [WORK=4] [MESSAGES=2, at most 16] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long iterations = argc > 1 ? atol(argv[1]) : 2000;
    long bytes = argc > 2 ? atol(argv[2]) : 4096;
    long work = argc > 3 ? atol(argv[3]) : 4;
    int messages = argc > 4 ? atoi(argv[4]) : 2;
    if (messages < 1 || messages > 16) MPI_Abort(MPI_COMM_WORLD, 1);
    long n = bytes / 8 > 1 ? bytes / 8 : 1;
    double *u = malloc(sizeof(double) * (size_t)n), *in = malloc(sizeof(double) * (size_t)n * (size_t)messages);
    if (u == NULL || in == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
    /* The first message comes from the previous rank, the second (if any) from the next. */
    double *left = in, *right = messages > 1 ? in + n : in;
    for (long i = 0; i < n; i++) u[i] = (double)(rank + i);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    double comm = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (long it = 0; it < iterations; it++) {
        for (long i = 0; i < n; i++) {
            double x = u[i];
            for (long k = 0; k < work; k++) x = x * 0.999 + 1e-3;
            u[i] = x;
        }
        double t0 = MPI_Wtime();
        MPI_Request req[32];
        for (int m = 0; m < messages; m++)
            MPI_Irecv(in + m * n, (int)n, MPI_DOUBLE, m % 2 ? next : prev, m, MPI_COMM_WORLD, &req[m]);
        for (int m = 0; m < messages; m++)
            MPI_Isend(u, (int)n, MPI_DOUBLE, m % 2 ? prev : next, m, MPI_COMM_WORLD, &req[messages + m]);
        MPI_Waitall(2 * messages, req, MPI_STATUSES_IGNORE);
        comm += MPI_Wtime() - t0;
        u[0] = 0.5 * (u[0] + left[n - 1]);
        u[n - 1] = 0.5 * (u[n - 1] + right[0]);
    }
    if (rank == 0) printf("hase-time halo %ld %ld %.9f\n", n * 8, iterations, comm);
    free(u);
    free(in);
    MPI_Finalize();
    return 0;
}
