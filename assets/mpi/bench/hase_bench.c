/* hase_bench: times MPI functions for a data sheet, after seed 002 section 3.3 ("rawtiming").
 *
 *   mpirun -np P hase_bench --sizes 0,64,1024 --functions bcast,send --repeat 20 --warmup 2 --timing loop
 *
 * Rank 0 prints one CSV row per timed repeat: function,procs,bytes,repeat,time_us (no header).
 * Two methods (--timing):
 *   single  every timed call starts right after an MPI_Barrier, on buffers allocated (and written,
 *           so their pages exist) for that call alone: the cost of an isolated call.
 *   loop    (default) each repeat times a batch of calls made back to back on the same buffers, as
 *           a communication loop makes them, and reports the mean per call: the steady-state cost.
 *           The batch shrinks with the size: max(4, 200 × 8 KiB / (d + 8 KiB)) calls.
 * The time of a collective is the maximum over the ranks of (return - barrier exit), taken with
 * MPI_Reduce; warm-up repeats are timed and dropped.
 * Point-to-point functions run between ranks 0 and 1 (the others wait in the barriers) and are
 * reported with procs = 2, whatever P is: send, recv (receive posted with the send), recvmin
 * (receive posted after the message has had time to arrive), isend1/isend2 (post/wait of Isend),
 * irecv1/irecv2 (post/wait of Irecv), sendrecv (both ranks exchange), pingpong (round trip),
 * selfsend (rank 0 alone sends to itself: MPI_Irecv from itself, MPI_Send, MPI_Wait, the whole).
 * In a loop, recv is half the round trip of a ping-pong and send the sender's time in MPI_Send
 * during it; recvmin receives messages sent ahead with MPI_Isend once they have all arrived.
 * Sizes are bytes: MPI_UNSIGNED_CHAR elements; gather/scatter/allgather/alltoall take the size
 * per process block. Reductions add unsigned chars (MPI_SUM). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LIST 64

static int rank, procs;

static int parse_list(char *text, char **items) {
    int n = 0;
    for (char *tok = strtok(text, ","); tok != NULL && n < MAX_LIST; tok = strtok(NULL, ",")) {
        items[n++] = tok;
    }
    return n;
}

static unsigned char *fresh(long bytes) {
    unsigned char *b = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (b == NULL) {
        fprintf(stderr, "hase_bench: cannot allocate %ld bytes\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(b, rank & 0xff, bytes > 0 ? (size_t)bytes : 1);
    return b;
}

static void spin_us(double us) {
    double until = MPI_Wtime() + us * 1e-6;
    while (MPI_Wtime() < until) {
    }
}

/* A message of `count` bytes from this rank to itself, its receive posted first (as MPI_Sendrecv
 * to oneself and halo exchanges post it): Open MPI's self transport copies it in the MPI_Send. */
static void self_message(unsigned char *a, unsigned char *b, int count) {
    MPI_Request req;
    MPI_Irecv(b, count, MPI_UNSIGNED_CHAR, rank, 0, MPI_COMM_WORLD, &req);
    MPI_Send(a, count, MPI_UNSIGNED_CHAR, rank, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
}

/* Point-to-point: rank 0 is the sender, rank 1 the receiver; returns this rank's time in µs
 * (0 on ranks that did not time). */
static double time_p2p(const char *f, long d) {
    unsigned char *a = fresh(d), *b = fresh(d);
    int count = (int)d;
    double t = 0.0;
    MPI_Request req;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (strcmp(f, "send") == 0 || strcmp(f, "recv") == 0) {
        if (rank == 0) {
            MPI_Send(a, count, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD);
            if (strcmp(f, "send") == 0) t = MPI_Wtime() - t0;
        } else if (rank == 1) {
            MPI_Recv(b, count, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (strcmp(f, "recv") == 0) t = MPI_Wtime() - t0;
        }
    } else if (strcmp(f, "recvmin") == 0) {
        if (rank == 0) {
            MPI_Send(a, count, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD);
        } else if (rank == 1) {
            spin_us(200.0 + (double)d * 0.002); /* longer than the message takes to arrive */
            double t1 = MPI_Wtime();
            MPI_Recv(b, count, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            t = MPI_Wtime() - t1;
        }
    } else if (strcmp(f, "isend1") == 0 || strcmp(f, "isend2") == 0) {
        if (rank == 0) {
            MPI_Isend(a, count, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD, &req);
            double t1 = MPI_Wtime();
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            t = strcmp(f, "isend1") == 0 ? t1 - t0 : MPI_Wtime() - t1;
        } else if (rank == 1) {
            MPI_Recv(b, count, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else if (strcmp(f, "irecv1") == 0 || strcmp(f, "irecv2") == 0) {
        if (rank == 0) {
            MPI_Send(a, count, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Irecv(b, count, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD, &req);
            double t1 = MPI_Wtime();
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            t = strcmp(f, "irecv1") == 0 ? t1 - t0 : MPI_Wtime() - t1;
        }
    } else if (strcmp(f, "sendrecv") == 0) {
        if (rank < 2) {
            int peer = 1 - rank;
            MPI_Sendrecv(a, count, MPI_UNSIGNED_CHAR, peer, 0, b, count, MPI_UNSIGNED_CHAR, peer, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            t = MPI_Wtime() - t0;
        }
    } else if (strcmp(f, "selfsend") == 0) {
        if (rank == 0) {
            self_message(a, b, count);
            t = MPI_Wtime() - t0;
        }
    } else if (strcmp(f, "pingpong") == 0) {
        if (rank == 0) {
            MPI_Send(a, count, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(b, count, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            t = MPI_Wtime() - t0;
        } else if (rank == 1) {
            MPI_Recv(b, count, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(a, count, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD);
        }
    }
    free(a);
    free(b);
    return t * 1e6;
}

/* One call of collective `f` on buffers a (send) and b (receive) of `count` bytes per block. */
static void collective_call(const char *f, unsigned char *a, unsigned char *b, int count) {
    if (strcmp(f, "barrier") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(f, "bcast") == 0) {
        MPI_Bcast(a, count, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
    } else if (strcmp(f, "reduce") == 0) {
        MPI_Reduce(a, b, count, MPI_UNSIGNED_CHAR, MPI_SUM, 0, MPI_COMM_WORLD);
    } else if (strcmp(f, "allreduce") == 0) {
        MPI_Allreduce(a, b, count, MPI_UNSIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD);
    } else if (strcmp(f, "gather") == 0) {
        MPI_Gather(a, count, MPI_UNSIGNED_CHAR, b, count, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
    } else if (strcmp(f, "scatter") == 0) {
        MPI_Scatter(a, count, MPI_UNSIGNED_CHAR, b, count, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
    } else if (strcmp(f, "allgather") == 0) {
        MPI_Allgather(a, count, MPI_UNSIGNED_CHAR, b, count, MPI_UNSIGNED_CHAR, MPI_COMM_WORLD);
    } else if (strcmp(f, "alltoall") == 0) {
        MPI_Alltoall(a, count, MPI_UNSIGNED_CHAR, b, count, MPI_UNSIGNED_CHAR, MPI_COMM_WORLD);
    }
}

/* A collective over all ranks, `calls` back to back; returns this rank's mean time per call, µs. */
static double time_collective(const char *f, long d, int calls) {
    long whole = d * procs;
    unsigned char *a = fresh(whole), *b = fresh(whole);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < calls; i++) collective_call(f, a, b, (int)d);
    double t = (MPI_Wtime() - t0) / calls;
    free(a);
    free(b);
    return t * 1e6;
}

/* Point-to-point in a loop of `calls` (rank 0 sends, rank 1 receives); returns this rank's mean
 * time per call in µs (0 on ranks that did not time). */
static double time_p2p_loop(const char *f, long d, int calls) {
    unsigned char *a = fresh(d), *b = fresh(d);
    int count = (int)d;
    double t = 0.0;
    MPI_Request *reqs = malloc((size_t)calls * sizeof *reqs);
    if (reqs == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (strcmp(f, "pingpong") == 0 || strcmp(f, "recv") == 0 || strcmp(f, "send") == 0) {
        double in_send = 0.0;
        for (int i = 0; i < calls; i++) {
            if (rank == 0) {
                double s0 = MPI_Wtime();
                MPI_Send(a, count, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD);
                in_send += MPI_Wtime() - s0;
                MPI_Recv(b, count, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(b, count, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(a, count, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD);
            }
        }
        if (rank == 0) {
            double round_trip = (MPI_Wtime() - t0) / calls;
            t = strcmp(f, "pingpong") == 0 ? round_trip : strcmp(f, "recv") == 0 ? round_trip / 2 : in_send / calls;
        }
    } else if (strcmp(f, "recvmin") == 0) {
        if (rank == 0) {
            for (int i = 0; i < calls; i++) MPI_Isend(a, count, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD, &reqs[i]);
            MPI_Waitall(calls, reqs, MPI_STATUSES_IGNORE);
        } else if (rank == 1) {
            spin_us(200.0 + (double)d * calls * 0.002); /* longer than the messages take to arrive */
            for (int i = 0; i < calls; i++) {
                double r0 = MPI_Wtime();
                MPI_Recv(b, count, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                t += MPI_Wtime() - r0;
            }
            t /= calls;
        }
    } else if (strcmp(f, "isend1") == 0 || strcmp(f, "isend2") == 0) {
        for (int i = 0; i < calls; i++) {
            if (rank == 0) {
                double p0 = MPI_Wtime();
                MPI_Isend(a, count, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD, &reqs[0]);
                double p1 = MPI_Wtime();
                MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
                t += strcmp(f, "isend1") == 0 ? p1 - p0 : MPI_Wtime() - p1;
            } else if (rank == 1) {
                MPI_Recv(b, count, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        }
        t /= calls;
    } else if (strcmp(f, "irecv1") == 0 || strcmp(f, "irecv2") == 0) {
        for (int i = 0; i < calls; i++) {
            if (rank == 0) {
                MPI_Send(a, count, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD);
            } else if (rank == 1) {
                double p0 = MPI_Wtime();
                MPI_Irecv(b, count, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD, &reqs[0]);
                double p1 = MPI_Wtime();
                MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
                t += strcmp(f, "irecv1") == 0 ? p1 - p0 : MPI_Wtime() - p1;
            }
        }
        t /= calls;
    } else if (strcmp(f, "selfsend") == 0) {
        if (rank == 0) {
            for (int i = 0; i < calls; i++) self_message(a, b, count);
            t = (MPI_Wtime() - t0) / calls;
        }
    } else if (strcmp(f, "sendrecv") == 0) {
        if (rank < 2) {
            int peer = 1 - rank;
            for (int i = 0; i < calls; i++) {
                MPI_Sendrecv(a, count, MPI_UNSIGNED_CHAR, peer, 0, b, count, MPI_UNSIGNED_CHAR, peer, 0,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            t = (MPI_Wtime() - t0) / calls;
        }
    }
    free(reqs);
    free(a);
    free(b);
    return t * 1e6;
}

/* Calls per timed batch of a loop for size d: fewer for long messages. */
static int batch_calls(long d) {
    long calls = 200L * 8192L / (d + 8192L);
    return calls < 4 ? 4 : (int)calls;
}

static int is_p2p(const char *f) {
    const char *names[] = {"send", "recv", "recvmin", "isend1", "isend2", "irecv1", "irecv2", "sendrecv", "pingpong", "selfsend"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(f, names[i]) == 0) return 1;
    }
    return 0;
}

static int is_collective(const char *f) {
    const char *names[] = {"barrier", "bcast", "reduce", "allreduce", "gather", "scatter", "allgather", "alltoall"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(f, names[i]) == 0) return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &procs);
    char *sizes_text = NULL, *functions_text = NULL;
    int repeat = 10, warmup = 2, p2p = 1, loop = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--sizes") == 0) sizes_text = argv[i + 1];
        else if (strcmp(argv[i], "--functions") == 0) functions_text = argv[i + 1];
        else if (strcmp(argv[i], "--repeat") == 0) repeat = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--warmup") == 0) warmup = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--p2p") == 0) p2p = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--timing") == 0) {
            if (strcmp(argv[i + 1], "loop") == 0) loop = 1;
            else if (strcmp(argv[i + 1], "single") == 0) loop = 0;
            else {
                if (rank == 0) fprintf(stderr, "hase_bench: --timing is loop or single, not %s\n", argv[i + 1]);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
        }
    }
    char *sizes[MAX_LIST], *functions[MAX_LIST];
    int n_sizes = sizes_text ? parse_list(sizes_text, sizes) : 0;
    int n_functions = functions_text ? parse_list(functions_text, functions) : 0;
    for (int f = 0; f < n_functions; f++) {
        int point_to_point = is_p2p(functions[f]);
        if (!point_to_point && !is_collective(functions[f])) {
            if (rank == 0) fprintf(stderr, "hase_bench: unknown function %s\n", functions[f]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (point_to_point && (!p2p || procs < 2)) continue;
        int n = strcmp(functions[f], "barrier") == 0 ? 1 : n_sizes;
        for (int s = 0; s < n; s++) {
            long d = strcmp(functions[f], "barrier") == 0 ? 0 : atol(sizes[s]);
            for (int r = -warmup; r < repeat; r++) {
                int calls = loop ? batch_calls(d) : 1;
                double mine = point_to_point ? (loop ? time_p2p_loop(functions[f], d, calls) : time_p2p(functions[f], d))
                                             : time_collective(functions[f], d, calls);
                double worst = 0.0;
                MPI_Reduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
                if (rank == 0 && r >= 0) {
                    printf("%s,%d,%ld,%d,%.3f\n", functions[f], point_to_point ? 2 : procs, d, r, worst);
                    fflush(stdout);
                }
            }
        }
    }
    MPI_Finalize();
    return 0;
}
