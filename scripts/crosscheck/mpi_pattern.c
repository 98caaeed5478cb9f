/* An explicit message pattern timed under SMPI, for `scripts/crosscheck-simgrid --explain`.
 *
 *   mpi_pattern FILE.ti
 *
 * FILE is a time-independent trace in the tagged dialect hase replays (`hase run --workload-trace`),
 * restricted to point-to-point actions: `R init`, `R send DST TAG BYTES`, `R isend DST TAG BYTES`,
 * `R recv SRC TAG BYTES`, `R irecv SRC TAG BYTES`, `R waitall`, and `R sendrecv DST SRC BYTES`
 * (MPI_Sendrecv, tag 0: hase has no such action; the script gives hase `isend`, `irecv`, `waitall`
 * in its place, which is how MPI defines it). Each rank runs its own lines in
 * file order, so both simulators run the very same sends in the very same order. Rank 0 prints
 * "time <seconds>" (the latest end over all ranks, what hase reports as the makespan) and one line
 * "rank R end <seconds>" per rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REQUESTS 256

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
  if (f == NULL) {
    if (rank == 0) fprintf(stderr, "usage: mpi_pattern FILE.ti\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Request requests[MAX_REQUESTS];
  int pending = 0;
  char line[256], action[32];
  char *buffer = malloc(1 << 24);
  double t0 = MPI_Wtime();
  while (fgets(line, sizeof line, f)) {
    int who, peer = 0, tag = 0;
    long bytes = 0;
    int n = sscanf(line, "%d %31s %d %d %ld", &who, action, &peer, &tag, &bytes);
    if (n < 2 || who != rank) continue;
    if (bytes > (1 << 23)) MPI_Abort(MPI_COMM_WORLD, 3);
    if (!strcmp(action, "send")) {
      MPI_Send(buffer, (int)bytes, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
    } else if (!strcmp(action, "recv")) {
      MPI_Recv(buffer, (int)bytes, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (!strcmp(action, "isend") && pending < MAX_REQUESTS) {
      MPI_Isend(buffer, (int)bytes, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &requests[pending++]);
    } else if (!strcmp(action, "irecv") && pending < MAX_REQUESTS) {
      MPI_Irecv(buffer, (int)bytes, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &requests[pending++]);
    } else if (!strcmp(action, "sendrecv")) {
      /* R sendrecv DST SRC BYTES: the fields read as peer, tag and bytes above. */
      MPI_Sendrecv(buffer, (int)bytes, MPI_BYTE, peer, 0, buffer + (1 << 23), (int)bytes, MPI_BYTE, tag, 0,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (!strcmp(action, "waitall")) {
      MPI_Waitall(pending, requests, MPI_STATUSES_IGNORE);
      pending = 0;
    } else if (strcmp(action, "init") && strcmp(action, "finalize")) {
      fprintf(stderr, "rank %d: action %s is not supported\n", rank, action);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  fclose(f);
  double t1 = MPI_Wtime();
  double *ends = malloc(sizeof(double) * size);
  MPI_Gather(&t1, 1, MPI_DOUBLE, ends, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double first = 0;
  MPI_Reduce(&t0, &first, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double last = 0;
    for (int r = 0; r < size; r++)
      if (ends[r] > last) last = ends[r];
    printf("time %.12e start %.12e\n", last - first, first);
    for (int r = 0; r < size; r++) printf("rank %d end %.12e\n", r, ends[r] - first);
  }
  free(ends);
  free(buffer);
  MPI_Finalize();
  return 0;
}
