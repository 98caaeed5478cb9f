/* A pipeline: rank 0 produces ITEMS blocks of B doubles, each rank in turn transforms every block
 * (a fixed amount of arithmetic per element) and passes it on with a blocking send; the last rank
 * sums the results. Fill and drain are visible in the timing diagram as the staircase at each end.
 *   mpirun -np 4 pipeline [ITEMS=64] [B=4096] */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void stage(double *block, int b, int rank) {
    for (int i = 0; i < b; i++) {
        double x = block[i];
        for (int k = 0; k < 20; k++) x = x * 0.999 + sin(x + rank);
        block[i] = x;
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int items = argc > 1 ? atoi(argv[1]) : 64;
    int b = argc > 2 ? atoi(argv[2]) : 4096;
    double *block = malloc(sizeof(double) * (size_t)b);
    if (block == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
    double sum = 0.0;
    for (int item = 0; item < items; item++) {
        if (rank == 0) {
            for (int i = 0; i < b; i++) block[i] = (double)(item * b + i) * 1e-3;
        } else {
            MPI_Recv(block, b, MPI_DOUBLE, rank - 1, item, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        stage(block, b, rank);
        if (rank < size - 1) {
            MPI_Send(block, b, MPI_DOUBLE, rank + 1, item, MPI_COMM_WORLD);
        } else {
            for (int i = 0; i < b; i++) sum += block[i];
        }
    }
    if (rank == size - 1) printf("pipeline: %d items of %d doubles through %d stages, sum %.6g\n", items, b, size, sum);
    free(block);
    MPI_Finalize();
    return 0;
}
