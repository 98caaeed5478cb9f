/* A task farm: rank 0 hands out TASKS tasks of varying size to the other ranks, one at a time,
 * and takes results back with MPI_ANY_SOURCE, so whichever worker finishes first gets the next
 * task (the schedule depends on timing). Task t costs about (1 + t mod 7) units of arithmetic.
 *   mpirun -np 4 task_farm [TASKS=60] [UNIT=20000] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define TAG_TASK 1
#define TAG_RESULT 2
#define TAG_STOP 3

static double work(int task, int unit) {
    double x = task;
    long steps = (long)(1 + task % 7) * unit;
    for (long i = 0; i < steps; i++) x = x * 0.9999999 + 1e-7 * (double)(i & 15);
    return x;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int tasks = argc > 1 ? atoi(argv[1]) : 60;
    int unit = argc > 2 ? atoi(argv[2]) : 20000;
    if (size < 2) {
        if (rank == 0) fprintf(stderr, "task_farm needs at least 2 ranks\n");
        MPI_Finalize();
        return 1;
    }
    if (rank == 0) {
        int next = 0, outstanding = 0;
        double total = 0.0;
        for (int w = 1; w < size; w++) {
            if (next < tasks) {
                MPI_Send(&next, 1, MPI_INT, w, TAG_TASK, MPI_COMM_WORLD);
                next++;
                outstanding++;
            } else {
                MPI_Send(&next, 1, MPI_INT, w, TAG_STOP, MPI_COMM_WORLD);
            }
        }
        while (outstanding > 0) {
            double result;
            MPI_Status st;
            MPI_Recv(&result, 1, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
            total += result;
            outstanding--;
            if (next < tasks) {
                MPI_Send(&next, 1, MPI_INT, st.MPI_SOURCE, TAG_TASK, MPI_COMM_WORLD);
                next++;
                outstanding++;
            } else {
                MPI_Send(&next, 1, MPI_INT, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
            }
        }
        printf("task_farm: %d tasks on %d workers, total %.6g\n", tasks, size - 1, total);
    } else {
        for (;;) {
            int task;
            MPI_Status st;
            MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            if (st.MPI_TAG == TAG_STOP) break;
            double result = work(task, unit);
            MPI_Send(&result, 1, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
