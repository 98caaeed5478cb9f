/* 2-D halo exchange with non-blocking messages: a Jacobi relaxation on an (N·Px) × (N·Py) grid,
 * each rank owning an N × N block of a Px × Py process grid (MPI_Dims_create). Every iteration
 * posts Irecv/Isend for its four edges, relaxes the interior while the edges travel, waits, then
 * relaxes the border; every 10 iterations an Allreduce sums the squared change.
 *   mpirun -np 4 halo2d [N=128] [ITERATIONS=50] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT(g, i, j) (g)[(size_t)(i) * (size_t)(n + 2) + (size_t)(j)]

static double relax(const double *old, double *new_, int n, int i0, int i1, int j0, int j1) {
    double change = 0.0;
    for (int i = i0; i <= i1; i++) {
        for (int j = j0; j <= j1; j++) {
            double v = 0.25 * (AT(old, i - 1, j) + AT(old, i + 1, j) + AT(old, i, j - 1) + AT(old, i, j + 1));
            change += (v - AT(old, i, j)) * (v - AT(old, i, j));
            AT(new_, i, j) = v;
        }
    }
    return change;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, dims[2] = {0, 0};
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 128;
    int iterations = argc > 2 ? atoi(argv[2]) : 50;
    MPI_Dims_create(size, 2, dims);
    int row = rank / dims[1], col = rank % dims[1];
    int north = row > 0 ? rank - dims[1] : MPI_PROC_NULL, south = row < dims[0] - 1 ? rank + dims[1] : MPI_PROC_NULL;
    int west = col > 0 ? rank - 1 : MPI_PROC_NULL, east = col < dims[1] - 1 ? rank + 1 : MPI_PROC_NULL;
    size_t cells = (size_t)(n + 2) * (size_t)(n + 2);
    double *a = calloc(cells, sizeof(double)), *b = calloc(cells, sizeof(double));
    double *send_w = malloc(sizeof(double) * (size_t)n), *send_e = malloc(sizeof(double) * (size_t)n);
    double *recv_w = malloc(sizeof(double) * (size_t)n), *recv_e = malloc(sizeof(double) * (size_t)n);
    if (!a || !b || !send_w || !send_e || !recv_w || !recv_e) MPI_Abort(MPI_COMM_WORLD, 2);
    if (row == 0) {
        for (int j = 0; j < n + 2; j++) AT(a, 0, j) = AT(b, 0, j) = 100.0; /* a hot top edge */
    }
    double total = 0.0;
    for (int it = 0; it < iterations; it++) {
        MPI_Request reqs[8];
        for (int i = 0; i < n; i++) {
            send_w[i] = AT(a, i + 1, 1);
            send_e[i] = AT(a, i + 1, n);
        }
        MPI_Irecv(&AT(a, 0, 1), n, MPI_DOUBLE, north, 0, MPI_COMM_WORLD, &reqs[0]);
        MPI_Irecv(&AT(a, n + 1, 1), n, MPI_DOUBLE, south, 1, MPI_COMM_WORLD, &reqs[1]);
        MPI_Irecv(recv_w, n, MPI_DOUBLE, west, 2, MPI_COMM_WORLD, &reqs[2]);
        MPI_Irecv(recv_e, n, MPI_DOUBLE, east, 3, MPI_COMM_WORLD, &reqs[3]);
        MPI_Isend(&AT(a, 1, 1), n, MPI_DOUBLE, north, 1, MPI_COMM_WORLD, &reqs[4]);
        MPI_Isend(&AT(a, n, 1), n, MPI_DOUBLE, south, 0, MPI_COMM_WORLD, &reqs[5]);
        MPI_Isend(send_w, n, MPI_DOUBLE, west, 3, MPI_COMM_WORLD, &reqs[6]);
        MPI_Isend(send_e, n, MPI_DOUBLE, east, 2, MPI_COMM_WORLD, &reqs[7]);
        double change = relax(a, b, n, 2, n - 1, 2, n - 1);
        MPI_Waitall(8, reqs, MPI_STATUSES_IGNORE);
        for (int i = 0; i < n; i++) {
            if (west != MPI_PROC_NULL) AT(a, i + 1, 0) = recv_w[i];
            if (east != MPI_PROC_NULL) AT(a, i + 1, n + 1) = recv_e[i];
        }
        change += relax(a, b, n, 1, 1, 1, n) + relax(a, b, n, n, n, 1, n);
        change += relax(a, b, n, 2, n - 1, 1, 1) + relax(a, b, n, 2, n - 1, n, n);
        double *t = a;
        a = b;
        b = t;
        if (it % 10 == 9) MPI_Allreduce(&change, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (rank == 0) printf("halo2d: %d x %d ranks, %d iterations, last change %.6g\n", dims[0], dims[1], iterations, total);
    free(a);
    free(b);
    free(send_w);
    free(send_e);
    free(recv_w);
    free(recv_e);
    MPI_Finalize();
    return 0;
}
