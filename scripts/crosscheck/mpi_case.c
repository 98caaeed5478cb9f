/* One MPI operation timed under SMPI, for scripts/crosscheck-simgrid.
 *
 *   mpi_case p2p BYTES DST      rank 0 sends BYTES to rank DST (the others do nothing)
 *   mpi_case OP BYTES           every rank calls OP once; BYTES as hase's collective_loop reads it:
 *                               the vector for bcast/reduce/allreduce/scan and for reduce_scatter
 *                               (split into p blocks), the per-rank block for gather, scatter,
 *                               allgather and alltoall; barrier ignores it.
 *
 * Every rank starts at simulated time 0 (MPI_Init costs nothing in SMPI); rank 0 prints
 * "time <seconds>": the latest end of the operation over all ranks, what hase reports as the
 * makespan of the same workload. Reductions use MPI_INT (4-byte elements) with MPI_SUM. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 3) {
    if (rank == 0) fprintf(stderr, "usage: mpi_case OP BYTES [DST]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *op = argv[1];
  long bytes = atol(argv[2]);
  long ints = bytes / 4;
  size_t big = (size_t)bytes * (size_t)size + 16;
  /* SMPI times messages, not the bytes in them: one shared buffer for all ranks keeps a 64-rank
   * alltoall of 1 MiB blocks from touching 8 GiB. */
#ifdef SMPI_SHARED_MALLOC
  char *a = SMPI_SHARED_MALLOC(big), *b = SMPI_SHARED_MALLOC(big);
#else
  char *a = malloc(big), *b = malloc(big);
#endif
  int *counts = malloc(sizeof(int) * size);
  memset(a, 1, big);
  double t0 = MPI_Wtime();
  if (!strcmp(op, "p2p")) {
    int dst = argc > 3 ? atoi(argv[3]) : 1;
    if (rank == 0) MPI_Send(a, (int)bytes, MPI_BYTE, dst, 0, MPI_COMM_WORLD);
    if (rank == dst) MPI_Recv(b, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (!strcmp(op, "barrier")) {
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(op, "bcast")) {
    MPI_Bcast(a, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  } else if (!strcmp(op, "reduce")) {
    MPI_Reduce(a, b, (int)ints, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  } else if (!strcmp(op, "allreduce")) {
    MPI_Allreduce(a, b, (int)ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  } else if (!strcmp(op, "gather")) {
    MPI_Gather(a, (int)bytes, MPI_BYTE, b, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  } else if (!strcmp(op, "scatter")) {
    MPI_Scatter(a, (int)bytes, MPI_BYTE, b, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  } else if (!strcmp(op, "allgather")) {
    MPI_Allgather(a, (int)bytes, MPI_BYTE, b, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
  } else if (!strcmp(op, "alltoall")) {
    MPI_Alltoall(a, (int)bytes, MPI_BYTE, b, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
  } else if (!strcmp(op, "reduce_scatter")) {
    for (int i = 0; i < size; i++) counts[i] = (int)(ints / size);
    MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  } else if (!strcmp(op, "scan")) {
    MPI_Scan(a, b, (int)ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  } else {
    if (rank == 0) fprintf(stderr, "unknown operation %s\n", op);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double t1 = MPI_Wtime();
  double first = 0, last = 0;
  MPI_Reduce(&t0, &first, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&t1, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("time %.12e start %.12e\n", last - first, first);
#ifdef SMPI_SHARED_MALLOC
  SMPI_SHARED_FREE(a);
  SMPI_SHARED_FREE(b);
#else
  free(a);
  free(b);
#endif
  free(counts);
  MPI_Finalize();
  return 0;
}
