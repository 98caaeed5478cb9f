/* Tree merge sort (seed 001's test program): N integers split evenly over P ranks, each rank sorts
 * its block, then in log2 P rounds rank r receives the sorted block of rank r + 2^k (when r is a
 * multiple of 2^(k+1)) and merges, so that rank 0 ends with everything sorted.
 *   mpirun -np 8 merge_sort [N=262144] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int *merge(const int *a, int na, const int *b, int nb) {
    int *out = malloc(sizeof(int) * (size_t)(na + nb));
    if (out == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
    int i = 0, j = 0, k = 0;
    while (i < na && j < nb) out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
    while (i < na) out[k++] = a[i++];
    while (j < nb) out[k++] = b[j++];
    return out;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long total = argc > 1 ? atol(argv[1]) : 262144;
    int n = (int)(total / size + (rank < total % size ? 1 : 0));
    int *data = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (data == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
    unsigned seed = 12345u + (unsigned)rank * 7919u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        data[i] = (int)(seed >> 8);
    }
    qsort(data, (size_t)n, sizeof(int), compare);
    for (int step = 1; step < size; step *= 2) {
        if (rank % (2 * step) == step) {
            MPI_Send(&n, 1, MPI_INT, rank - step, 0, MPI_COMM_WORLD);
            MPI_Send(data, n, MPI_INT, rank - step, 1, MPI_COMM_WORLD);
            break;
        }
        if (rank % (2 * step) == 0 && rank + step < size) {
            int m = 0;
            MPI_Recv(&m, 1, MPI_INT, rank + step, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            int *other = malloc(sizeof(int) * (size_t)(m > 0 ? m : 1));
            if (other == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
            MPI_Recv(other, m, MPI_INT, rank + step, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            int *merged = merge(data, n, other, m);
            free(data);
            free(other);
            data = merged;
            n += m;
        }
    }
    if (rank == 0) {
        int sorted = 1;
        for (int i = 1; i < n; i++) sorted &= data[i - 1] <= data[i];
        printf("merge_sort: %d integers %s on %d ranks\n", n, sorted ? "sorted" : "NOT SORTED", size);
    }
    free(data);
    MPI_Finalize();
    return 0;
}
