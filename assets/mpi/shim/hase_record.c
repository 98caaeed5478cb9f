/* hase_record: a PMPI logger (LD_PRELOAD) that writes every MPI call of an unmodified program to
 * $HASE_RECORD_DIR/rank<R>.log, with the thread CPU time spent since the previous call returned
 * (less the logger's own per-call cost, calibrated at MPI_Init: hase_cpu_gap_ns), the wall clock
 * around the call, the peer or root, tag, bytes, request numbers and, for receives, the source,
 * tag and size that actually matched; it also times the MPI library's function inside each call
 * (HASE_REAL), so that its own work inside the calls is known. `hase mpi record` turns the logs into SimGrid
 * time-independent traces and the real timeline. Line format (docs/datasheets.md, "Recording"):
 *   hase-record 1 <rank> <size>
 *   <call> <cpu_ns_before> <wall_start_ns> <wall_end_ns> <comm> <arguments…>
 * where <comm> is 1 for MPI_COMM_WORLD, c<number> for a communicator the log created with a
 * `comm_split` line, 0 for any other
 *   end <wall_ns_init_to_finalize> <cpu_ns_total>
 * and $HASE_RECORD_DIR/clock<R>.txt, the clock alignment and the calibration:
 *   hase-clock 1 <rank> <size>
 *   sync <at_wall_ns> <offset_ns> <round_trip_ns>   at MPI_Init and again at MPI_Finalize
 *   gap <cpu_ns_per_call> <calls> <subtracted_ns> <in_call_ns>
 *                            the calibrated cost, what was taken out, and the logger's own work
 *                            inside the calls' wall windows (their wall time less the library's)
 *   bursts <raw_cpu_ns> <wall_ns>                   computation between calls, CPU and wall
 * A rank's offset is its clock minus rank 0's, from the ping-pong with the shortest round trip
 * (Cristian's method) of SYNC_ROUNDS exchanged with rank 0 on a duplicate of MPI_COMM_WORLD. */
#include "hase_shim.h"

static FILE *out, *clock_out;
static int64_t last_cpu, last_wall, init_wall, init_cpu;
static int64_t cpu_gap_ns, subtracted_ns, burst_cpu_ns, burst_wall_ns, n_calls;
/* A call's wall window runs from its entry (begin) to the reading that starts the next burst. */
static int64_t call_entry_wall, call_window_ns;

/* The clocks are read in the order that makes a burst's wall window [last_wall, wall0] hold the
 * program's work only, and its CPU window one reading of the CPU clock more (cpu_gap_ns). */
static void begin(const char *call, int64_t *wall0) {
    *wall0 = call_entry_wall = hase_wall_ns();
    int64_t cpu = hase_cpu_ns();
    int64_t raw = cpu - last_cpu, net = hase_net_burst_ns(raw, cpu_gap_ns);
    subtracted_ns += raw - net;
    burst_cpu_ns += raw;
    burst_wall_ns += *wall0 - last_wall;
    n_calls++;
    fprintf(out, "%s %lld %lld", call, (long long)net, (long long)*wall0);
}

/* Ends the call's line: the wall end, the communicator flag, then the arguments already formatted. */
static void end_long(MPI_Comm comm, const char *args);

static void end(int64_t wall0, MPI_Comm comm, const char *args) {
    (void)wall0;
    end_long(comm, args);
}

#define SYNC_ROUNDS 16

/* One clock alignment with rank 0 (every rank takes part): writes `sync <at> <offset> <rtt>`. */
static void sync_clocks(int rank, int size) {
    MPI_Comm sync;
    PMPI_Comm_dup(MPI_COMM_WORLD, &sync);
    int64_t mine[2] = {0, 0}; /* offset, round trip */
    for (int peer = 1; peer < size; peer++) {
        if (rank != 0 && rank != peer) continue;
        int64_t best_rtt = INT64_MAX, best_offset = 0;
        for (int i = 0; i < SYNC_ROUNDS; i++) {
            int64_t theirs = 0;
            if (rank == 0) {
                int64_t t0 = hase_wall_ns();
                PMPI_Send(&t0, 1, MPI_INT64_T, peer, 0, sync);
                PMPI_Recv(&theirs, 1, MPI_INT64_T, peer, 0, sync, MPI_STATUS_IGNORE);
                int64_t t1 = hase_wall_ns();
                if (t1 - t0 < best_rtt) {
                    best_rtt = t1 - t0;
                    best_offset = theirs - (t0 + (t1 - t0) / 2);
                }
            } else {
                PMPI_Recv(&theirs, 1, MPI_INT64_T, 0, 0, sync, MPI_STATUS_IGNORE);
                int64_t now = hase_wall_ns();
                PMPI_Send(&now, 1, MPI_INT64_T, 0, 0, sync);
            }
        }
        if (rank == 0) {
            int64_t result[2] = {best_offset, best_rtt};
            PMPI_Send(result, 2, MPI_INT64_T, peer, 1, sync);
        } else {
            PMPI_Recv(mine, 2, MPI_INT64_T, 0, 1, sync, MPI_STATUS_IGNORE);
        }
    }
    PMPI_Comm_free(&sync);
    fprintf(clock_out, "sync %lld %lld %lld\n", (long long)hase_wall_ns(), (long long)mine[0], (long long)mine[1]);
}

static int world_rank, world_size;

static void start_log(void) {
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    out = hase_open_rank_file("HASE_RECORD_DIR", "rank", world_rank, ".log");
    clock_out = hase_open_rank_file("HASE_RECORD_DIR", "clock", world_rank, ".txt");
    fprintf(out, "hase-record 1 %d %d\n", world_rank, world_size);
    fprintf(clock_out, "hase-clock 1 %d %d\n", world_rank, world_size);
    cpu_gap_ns = hase_cpu_gap_ns();
    sync_clocks(world_rank, world_size);
    PMPI_Barrier(MPI_COMM_WORLD);
    init_cpu = last_cpu = hase_cpu_ns();
    init_wall = last_wall = hase_wall_ns();
}

int MPI_Init(int *argc, char ***argv) {
    int rc = PMPI_Init(argc, argv);
    start_log();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    start_log();
    return rc;
}

int MPI_Finalize(void) {
    int64_t w;
    begin("finalize", &w);
    end(w, MPI_COMM_WORLD, "");
    fprintf(out, "end %lld %lld\n", (long long)(hase_wall_ns() - init_wall), (long long)(hase_cpu_ns() - init_cpu));
    fclose(out);
    sync_clocks(world_rank, world_size);
    fprintf(clock_out, "gap %lld %lld %lld %lld\n", (long long)cpu_gap_ns, (long long)n_calls, (long long)subtracted_ns,
            (long long)(call_window_ns - hase_real_ns));
    fprintf(clock_out, "bursts %lld %lld\n", (long long)burst_cpu_ns, (long long)burst_wall_ns);
    fclose(clock_out);
    return PMPI_Finalize();
}

static int log_send(const char *call, const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    int (*op)(const void *, int, MPI_Datatype, int, int, MPI_Comm)) {
    int64_t w;
    char args[128];
    begin(call, &w);
    int rc = HASE_REAL(op(buf, count, type, dest, tag, comm));
    snprintf(args, sizeof args, "%d %d %ld", hase_world_rank(comm, dest), tag, hase_bytes(count, type));
    end(w, comm, args);
    return rc;
}

int MPI_Send(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm) {
    return log_send("send", b, c, t, d, tag, comm, PMPI_Send);
}
int MPI_Ssend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm) {
    return log_send("send", b, c, t, d, tag, comm, PMPI_Ssend);
}
int MPI_Rsend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm) {
    return log_send("send", b, c, t, d, tag, comm, PMPI_Rsend);
}
int MPI_Bsend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm) {
    return log_send("send", b, c, t, d, tag, comm, PMPI_Bsend);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Status *status) {
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    int64_t w;
    char args[160];
    begin("recv", &w);
    int rc = HASE_REAL(PMPI_Recv(buf, count, type, src, tag, comm, st));
    int got = 0;
    PMPI_Get_count(st, type, &got);
    snprintf(args, sizeof args, "%d %d %ld %d %d %ld", hase_world_rank(comm, src), tag, hase_bytes(count, type),
             hase_world_rank(comm, st->MPI_SOURCE), st->MPI_TAG, hase_bytes(got, type));
    end(w, comm, args);
    return rc;
}

static int log_isend(const char *call, const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     MPI_Request *req,
                     int (*op)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *)) {
    int64_t w;
    char args[160];
    begin(call, &w);
    int rc = HASE_REAL(op(buf, count, type, dest, tag, comm, req));
    hase_req *r = hase_req_add(*req);
    snprintf(args, sizeof args, "%d %d %ld %ld", hase_world_rank(comm, dest), tag, hase_bytes(count, type), r->id);
    end(w, comm, args);
    return rc;
}

int MPI_Isend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm, MPI_Request *req) {
    return log_isend("isend", b, c, t, d, tag, comm, req, PMPI_Isend);
}
int MPI_Issend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm, MPI_Request *req) {
    return log_isend("isend", b, c, t, d, tag, comm, req, PMPI_Issend);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request *req) {
    int64_t w;
    char args[160];
    begin("irecv", &w);
    int rc = HASE_REAL(PMPI_Irecv(buf, count, type, src, tag, comm, req));
    hase_req *r = hase_req_add(*req);
    r->is_recv = 1;
    r->comm = comm;
    snprintf(args, sizeof args, "%d %d %ld %ld", hase_world_rank(comm, src), tag, hase_bytes(count, type), r->id);
    end(w, comm, args);
    return rc;
}

/* Completions: append " <req> <source> <tag> <bytes>" for the request that `handle` was, now
 * done with status `st`, and forget it. Receives count bytes in MPI_BYTE units of the status. */
static void completed(char *args, size_t room, MPI_Request handle, MPI_Status *st, int *n) {
    hase_req *r = hase_req_find(handle);
    if (r == NULL) return;
    size_t used = strlen(args);
    if (r->is_recv) {
        int got = 0;
        PMPI_Get_count(st, MPI_BYTE, &got);
        snprintf(args + used, room - used, " %ld %d %d %d", r->id, hase_world_rank(r->comm, st->MPI_SOURCE),
                 st->MPI_TAG, got);
    } else {
        snprintf(args + used, room - used, " %ld -1 -1 0", r->id);
    }
    hase_req_remove(r);
    (*n)++;
}

/* Writes a wait-like line: `wait … <n> <completions>`. */
static void wait_line(int64_t w, char *done, int n) {
    char args[64];
    snprintf(args, sizeof args, "%d", n);
    size_t len = strlen(args);
    char *line = malloc(len + strlen(done) + 1);
    if (line == NULL) PMPI_Abort(MPI_COMM_WORLD, 3);
    memcpy(line, args, len);
    strcpy(line + len, done);
    end(w, MPI_COMM_WORLD, line);
    free(line);
}

/* MPI_Wait (`flag` NULL) and MPI_Test: one `wait` line, with the request's completion when it
 * completed. */
static int one_request(MPI_Request *req, int *flag, MPI_Status *status) {
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    MPI_Request handle = *req;
    int64_t w;
    char done[128] = "";
    int n = 0;
    begin("wait", &w);
    int rc = HASE_REAL(flag == NULL ? PMPI_Wait(req, st) : PMPI_Test(req, flag, st));
    if (flag == NULL || *flag) completed(done, sizeof done, handle, st, &n);
    wait_line(w, done, n);
    return rc;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status) {
    return one_request(req, NULL, status);
}
int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
    return one_request(req, flag, status);
}

static int many(int count, MPI_Request reqs[], int *index, int *outcount, int indices[], MPI_Status statuses[],
                int which) {
    MPI_Request *handles = malloc(sizeof(MPI_Request) * (size_t)(count > 0 ? count : 1));
    MPI_Status *st = malloc(sizeof(MPI_Status) * (size_t)(count > 0 ? count : 1));
    int *idx = malloc(sizeof(int) * (size_t)(count > 0 ? count : 1));
    if (handles == NULL || st == NULL || idx == NULL) PMPI_Abort(MPI_COMM_WORLD, 3);
    memcpy(handles, reqs, sizeof(MPI_Request) * (size_t)count);
    int64_t w;
    begin("wait", &w);
    int rc, n_done = 0;
    if (which == 0) { /* waitall */
        rc = HASE_REAL(PMPI_Waitall(count, reqs, st));
        for (int i = 0; i < count; i++) idx[n_done++] = i;
    } else if (which == 1) { /* waitany */
        rc = HASE_REAL(PMPI_Waitany(count, reqs, index, st));
        if (*index != MPI_UNDEFINED) {
            idx[n_done++] = *index;
            st[*index] = st[0];
        }
    } else { /* waitsome */
        MPI_Status *got = malloc(sizeof(MPI_Status) * (size_t)(count > 0 ? count : 1));
        if (got == NULL) PMPI_Abort(MPI_COMM_WORLD, 3);
        rc = HASE_REAL(PMPI_Waitsome(count, reqs, outcount, idx, got));
        if (*outcount != MPI_UNDEFINED) {
            for (int i = 0; i < *outcount; i++) st[idx[i]] = got[i];
            n_done = *outcount;
        }
        free(got);
    }
    size_t room = 32 * (size_t)(n_done + 1);
    char *done = calloc(room, 1);
    if (done == NULL) PMPI_Abort(MPI_COMM_WORLD, 3);
    int n = 0;
    for (int i = 0; i < n_done; i++) completed(done, room, handles[idx[i]], &st[idx[i]], &n);
    wait_line(w, done, n);
    if (which == 0 && statuses != MPI_STATUSES_IGNORE) memcpy(statuses, st, sizeof(MPI_Status) * (size_t)count);
    if (which == 1 && statuses != MPI_STATUSES_IGNORE && *index != MPI_UNDEFINED) statuses[0] = st[*index];
    if (which == 2) {
        for (int i = 0; i < n_done; i++) indices[i] = idx[i];
        if (statuses != MPI_STATUSES_IGNORE) {
            for (int i = 0; i < n_done; i++) statuses[i] = st[idx[i]];
        }
    }
    free(done);
    free(idx);
    free(st);
    free(handles);
    return rc;
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[]) {
    return many(count, reqs, NULL, NULL, NULL, statuses, 0);
}
int MPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status) {
    return many(count, reqs, index, NULL, NULL, status == MPI_STATUS_IGNORE ? MPI_STATUSES_IGNORE : status, 1);
}
int MPI_Waitsome(int count, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]) {
    return many(count, reqs, NULL, outcount, indices, statuses, 2);
}

int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype st, int dest, int stag, void *rb, int rc_, MPI_Datatype rt,
                 int src, int rtag, MPI_Comm comm, MPI_Status *status) {
    MPI_Status local;
    MPI_Status *s = status == MPI_STATUS_IGNORE ? &local : status;
    int64_t w;
    char args[200];
    begin("sendrecv", &w);
    int rc = HASE_REAL(PMPI_Sendrecv(sb, sc, st, dest, stag, rb, rc_, rt, src, rtag, comm, s));
    int got = 0;
    PMPI_Get_count(s, rt, &got);
    snprintf(args, sizeof args, "%d %d %ld %d %d %d %d %ld", hase_world_rank(comm, dest), stag, hase_bytes(sc, st),
             hase_world_rank(comm, src), rtag, hase_world_rank(comm, s->MPI_SOURCE), s->MPI_TAG, hase_bytes(got, rt));
    end(w, comm, args);
    return rc;
}

int MPI_Barrier(MPI_Comm comm) {
    int64_t w;
    begin("barrier", &w);
    int rc = HASE_REAL(PMPI_Barrier(comm));
    end(w, comm, "");
    return rc;
}

int MPI_Bcast(void *b, int c, MPI_Datatype t, int root, MPI_Comm comm) {
    int64_t w;
    char args[96];
    begin("bcast", &w);
    int rc = HASE_REAL(PMPI_Bcast(b, c, t, root, comm));
    snprintf(args, sizeof args, "%ld %d", hase_bytes(c, t), root);
    end(w, comm, args);
    return rc;
}

int MPI_Reduce(const void *s, void *r, int c, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm) {
    int64_t w;
    char args[96];
    begin("reduce", &w);
    int rc = HASE_REAL(PMPI_Reduce(s, r, c, t, op, root, comm));
    snprintf(args, sizeof args, "%ld %d", hase_bytes(c, t), root);
    end(w, comm, args);
    return rc;
}

int MPI_Allreduce(const void *s, void *r, int c, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    int64_t w;
    char args[96];
    begin("allreduce", &w);
    int rc = HASE_REAL(PMPI_Allreduce(s, r, c, t, op, comm));
    snprintf(args, sizeof args, "%ld", hase_bytes(c, t));
    end(w, comm, args);
    return rc;
}

static int block(const char *call, long send, long recv, int root, int rc, int64_t w, MPI_Comm comm) {
    char args[96];
    if (root >= 0) snprintf(args, sizeof args, "%ld %ld %d", send, recv, root);
    else snprintf(args, sizeof args, "%ld %ld", send, recv);
    (void)call;
    end(w, comm, args);
    return rc;
}

int MPI_Gather(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, int root, MPI_Comm comm) {
    int64_t w;
    begin("gather", &w);
    int rc = HASE_REAL(PMPI_Gather(s, sc, st, r, rc_, rt, root, comm));
    return block("gather", hase_bytes(sc, st), hase_bytes(rc_, rt), root, rc, w, comm);
}

int MPI_Scatter(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, int root, MPI_Comm comm) {
    int64_t w;
    begin("scatter", &w);
    int rc = HASE_REAL(PMPI_Scatter(s, sc, st, r, rc_, rt, root, comm));
    return block("scatter", hase_bytes(sc, st), hase_bytes(rc_, rt), root, rc, w, comm);
}

int MPI_Allgather(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm) {
    int64_t w;
    begin("allgather", &w);
    int rc = HASE_REAL(PMPI_Allgather(s, sc, st, r, rc_, rt, comm));
    return block("allgather", hase_bytes(sc, st), hase_bytes(rc_, rt), -1, rc, w, comm);
}

int MPI_Alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm) {
    int64_t w;
    begin("alltoall", &w);
    int rc = HASE_REAL(PMPI_Alltoall(s, sc, st, r, rc_, rt, comm));
    return block("alltoall", hase_bytes(sc, st), hase_bytes(rc_, rt), -1, rc, w, comm);
}

/* Communicators other than MPI_COMM_WORLD. Each gets a number its members agree on: the largest
 * next number among them, so two communicators that share a rank never share a number. Lines of
 * calls on such a communicator carry `c<number>` in the communicator field; its creation is
 * logged as `comm_split … <number> <world rank of each member, in its rank order>`. */
#define MAX_COMMS 4096
static struct {
    MPI_Comm comm;
    int id;
} comms[MAX_COMMS];
static int n_comms, next_comm_id = 1;

static int comm_id(MPI_Comm comm) {
    for (int i = 0; i < n_comms; i++) {
        if (comms[i].comm == comm) return comms[i].id;
    }
    return 0;
}

static void forget_comm(MPI_Comm comm) {
    for (int i = 0; i < n_comms; i++) {
        if (comms[i].comm == comm) {
            comms[i] = comms[--n_comms];
            return;
        }
    }
}

/* The communicator field of a line: 1 for MPI_COMM_WORLD, c<number> for a logged one, 0 else. */
static void comm_field(char *field, size_t room, MPI_Comm comm) {
    int id = comm == MPI_COMM_WORLD ? 0 : comm_id(comm);
    if (comm == MPI_COMM_WORLD) snprintf(field, room, "1");
    else if (id > 0) snprintf(field, room, "c%d", id);
    else snprintf(field, room, "0");
}

/* Ends a line whose arguments may be long (per-rank counts): like end(), with the field. */
static void end_long(MPI_Comm comm, const char *args) {
    char field[24];
    comm_field(field, sizeof field, comm);
    fprintf(out, " %lld %s %s\n", (long long)hase_wall_ns(), field, args);
    last_cpu = hase_cpu_ns();
    last_wall = hase_wall_ns();
    call_window_ns += last_wall - call_entry_wall;
}

/* A growing text buffer for per-rank counts. */
typedef struct {
    char *text;
    size_t used, room;
} text_buf;

static void add(text_buf *b, const char *fmt, long value) {
    if (b->room - b->used < 32) {
        b->room = b->room * 2 + 64;
        b->text = realloc(b->text, b->room);
        if (b->text == NULL) PMPI_Abort(MPI_COMM_WORLD, 3);
    }
    b->used += (size_t)snprintf(b->text + b->used, b->room - b->used, fmt, value);
}

/* Logs a new communicator `*made` (MPI_COMM_NULL for ranks outside it) and numbers it. */
static void new_comm(MPI_Comm parent, MPI_Comm *made) {
    if (*made == MPI_COMM_NULL) {
        end_long(parent, "0");
        return;
    }
    int id = 0, size = 0;
    PMPI_Allreduce(&next_comm_id, &id, 1, MPI_INT, MPI_MAX, *made);
    next_comm_id = id + 1;
    forget_comm(*made);
    if (n_comms < MAX_COMMS) {
        comms[n_comms].comm = *made;
        comms[n_comms].id = id;
        n_comms++;
    }
    PMPI_Comm_size(*made, &size);
    text_buf b = {0};
    add(&b, "%ld", id);
    for (int i = 0; i < size; i++) add(&b, " %ld", hase_world_rank(*made, i));
    end_long(parent, b.text);
    free(b.text);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *made) {
    int64_t w;
    begin("comm_split", &w);
    (void)w;
    int rc = HASE_REAL(PMPI_Comm_split(comm, color, key, made));
    new_comm(comm, made);
    return rc;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *made) {
    int64_t w;
    begin("comm_split", &w);
    (void)w;
    int rc = HASE_REAL(PMPI_Comm_dup(comm, made));
    new_comm(comm, made);
    return rc;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *made) {
    int64_t w;
    begin("comm_split", &w);
    (void)w;
    int rc = HASE_REAL(PMPI_Comm_create(comm, group, made));
    new_comm(comm, made);
    return rc;
}

int MPI_Comm_free(MPI_Comm *comm) {
    forget_comm(*comm);
    return PMPI_Comm_free(comm);
}

/* The collectives with per-rank counts, counts in bytes, one per rank of the communicator:
 *   gatherv    <send> <root> <p> <recv ×p>   (zeros on ranks other than the root)
 *   scatterv   <recv> <root> <p> <send ×p>   (zeros on ranks other than the root)
 *   allgatherv <send> <p> <recv ×p>
 *   alltoallv  <p> <send ×p> <recv ×p> */
static void counts(text_buf *b, int p, const int *c, MPI_Datatype t, int significant) {
    for (int i = 0; i < p; i++) add(b, " %ld", significant && c != NULL ? hase_bytes(c[i], t) : 0);
}

/* The end of a gatherv or scatterv line: `<own block> <root> <p> <count ×p>`, counts only at the root. */
static void rooted(long own, int root, const int *per_rank, MPI_Datatype type, MPI_Comm comm) {
    int p = 0, me = 0;
    PMPI_Comm_size(comm, &p);
    PMPI_Comm_rank(comm, &me);
    text_buf b = {0};
    add(&b, "%ld", own);
    add(&b, " %ld", root);
    add(&b, " %ld", p);
    counts(&b, p, per_rank, type, me == root);
    end_long(comm, b.text);
    free(b.text);
}

int MPI_Gatherv(const void *s, int sc, MPI_Datatype st, void *r, const int rcs[], const int displs[],
                MPI_Datatype rt, int root, MPI_Comm comm) {
    int64_t w;
    begin("gatherv", &w);
    int rc = HASE_REAL(PMPI_Gatherv(s, sc, st, r, rcs, displs, rt, root, comm));
    rooted(hase_bytes(sc, st), root, rcs, rt, comm);
    return rc;
}

int MPI_Scatterv(const void *s, const int scs[], const int displs[], MPI_Datatype st, void *r, int rc_,
                 MPI_Datatype rt, int root, MPI_Comm comm) {
    int64_t w;
    begin("scatterv", &w);
    int rc = HASE_REAL(PMPI_Scatterv(s, scs, displs, st, r, rc_, rt, root, comm));
    rooted(hase_bytes(rc_, rt), root, scs, st, comm);
    return rc;
}

int MPI_Allgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int rcs[], const int displs[],
                   MPI_Datatype rt, MPI_Comm comm) {
    int64_t w;
    begin("allgatherv", &w);
    int rc = HASE_REAL(PMPI_Allgatherv(s, sc, st, r, rcs, displs, rt, comm));
    int p = 0;
    PMPI_Comm_size(comm, &p);
    text_buf b = {0};
    add(&b, "%ld", hase_bytes(sc, st));
    add(&b, " %ld", p);
    counts(&b, p, rcs, rt, 1);
    end_long(comm, b.text);
    free(b.text);
    return rc;
}

int MPI_Alltoallv(const void *s, const int scs[], const int sd[], MPI_Datatype st, void *r, const int rcs[],
                  const int rd[], MPI_Datatype rt, MPI_Comm comm) {
    int64_t w;
    begin("alltoallv", &w);
    int rc = HASE_REAL(PMPI_Alltoallv(s, scs, sd, st, r, rcs, rd, rt, comm));
    int p = 0;
    PMPI_Comm_size(comm, &p);
    text_buf b = {0};
    add(&b, "%ld", p);
    counts(&b, p, scs, st, 1);
    counts(&b, p, rcs, rt, 1);
    end_long(comm, b.text);
    free(b.text);
    return rc;
}
