/* hase_predict: reverse profiling (seed 000, section 4) as a PMPI layer loaded with LD_PRELOAD.
 * The program runs for real; each rank keeps a virtual clock (µs) that computation advances by
 * the thread CPU time measured between MPI calls (less the shim's own per-call cost, calibrated at
 * MPI_Init: hase_cpu_gap_ns) × $HASE_PREDICT_CPU_SCALE, and each MPI call by
 * the data sheet in $HASE_PREDICT_SHEET (written by `hase mpi predict`). A send's virtual start
 * travels with the message as a stamp on a duplicate of MPI_COMM_WORLD with the same tag, so a
 * receive — wildcards included, the stamp is taken from the source and tag that matched — ends at
 * max(receive start + min(recvmin(d), recv(d)), send start + recv(d)). The stamp is the message's
 * transfer start: a rank's messages to one receiver follow one another, each occupying the pair
 * for recv(d) − recv(0) after the previous one's transfer ends (it starts at max(send start,
 * previous end − recv(0)) and ends recv(d) later), as hase's data-sheet network level times them.
 * A message whose transfer overlaps one of the receiver's own last TWO_WAY_HISTORY transfers to
 * its sender (the pair moving data both ways at once) is received no earlier than its start +
 * sendrecv(d) (at least recv(d); recv(d) for a sheet without sendrecv) in place of recv(d).
 * A message to oneself on a sheet with selfsend is one copy made by the sender, as at hase's
 * data-sheet level: the send (or an Isend's post, complete then) takes selfsend(d), its stamp is
 * its send start (chained behind nothing), its receive ends at max(receive start, stamp +
 * selfsend(d)), and an Irecv from oneself costs nothing to post; without selfsend it is timed as a
 * message to another rank.
 * Collectives end at the latest entry over the group + t(p, d) (the collectives with per-rank
 * counts: of the mean block). MPI_Wtime returns the virtual clock. The per-rank record goes to
 * $HASE_PREDICT_DIR/pred<R>.txt:
 *   hase-predict 1 <rank> <size>
 *   S <STATE> <start_ps> <end_ps>          a state interval (COMPUTE, SEND, RECV, WAIT, BCAST, …)
 *   M <source> <depart_ps> <arrive_ps> <bytes>   a message this rank received
 *   missing <function>                      the sheet lacked it (timed as 0)
 *   used <function> <p> <min_bytes> <max_bytes>   the sizes it was asked for at p processes
 *   measured <calls> <mpi_wall_ns> <burst_cpu_ns> <burst_wall_ns> <gap_ns> <subtracted_ns> <in_call_ns>
 *                                           wall time inside MPI calls; computation between calls
 *                                           (raw CPU and wall); the shim's calibrated per-call cost
 *                                           (hase_cpu_gap_ns) and how much of it was taken out of
 *                                           the bursts before they advanced the clock; the shim's
 *                                           own work inside the calls: their wall time less that of
 *                                           the MPI library's functions (HASE_REAL; the exchange
 *                                           of entry clocks before a collective, which holds the
 *                                           wait for the last rank, counts as the library's)
 *   end <virtual_ps> <wall_ns> <cpu_ns>     predicted and measured times */
#include <math.h>

#include "hase_shim.h"

#define MAX_FUNCS 32

#define MAX_POINTS 4096

typedef struct {
    char name[32];
    double limit_bytes;
    double c[2], s[2], k[2];
    int startup[2], data[2];
    /* Measured points (procs, bytes, µs), sorted by procs then bytes: used between measured sizes. */
    int n_points;
    int *point_procs;
    double *point_bytes, *point_us;
} sheet_fn;

static sheet_fn sheet[MAX_FUNCS];
static int n_funcs;
static double log_base = 2.0, element_bytes = 1.0, cpu_scale = 1.0;
static char missing[MAX_FUNCS][32];
static int n_missing;

/* The sizes each function was asked for, per process count: `hase mpi predict` warns where they
 * leave the sheet's measured range. */
#define MAX_USES 256
typedef struct {
    const char *name;
    int p;
    long min_bytes, max_bytes;
} sheet_use;
static sheet_use uses[MAX_USES];
static int n_uses;

static void note_use(const char *name, int p, long bytes) {
    for (int i = 0; i < n_uses; i++) {
        if (uses[i].p != p || strcmp(uses[i].name, name) != 0) continue;
        if (bytes < uses[i].min_bytes) uses[i].min_bytes = bytes;
        if (bytes > uses[i].max_bytes) uses[i].max_bytes = bytes;
        return;
    }
    if (n_uses < MAX_USES) uses[n_uses++] = (sheet_use){name, p, bytes, bytes};
}

static FILE *out;
static MPI_Comm shadow;
static double clock_us;
static int64_t last_cpu, init_wall, init_cpu;
static int world_rank;
/* What the error budget of `hase mpi predict` needs: see the `measured` line above. */
static int64_t n_calls, mpi_wall_ns, burst_cpu_ns, burst_wall_ns, cpu_gap_ns, subtracted_ns, entry_wall, exit_wall;

static void read_sheet(void) {
    const char *path = getenv("HASE_PREDICT_SHEET");
    FILE *f = path ? fopen(path, "r") : NULL;
    if (f == NULL) {
        fprintf(stderr, "hase_predict: cannot read the sheet $HASE_PREDICT_SHEET (%s)\n", path ? path : "unset");
        PMPI_Abort(MPI_COMM_WORLD, 2);
    }
    char key[32];
    int version = 0;
    if (fscanf(f, "hase-predict-sheet %d log_base %lf element_bytes %lf", &version, &log_base, &element_bytes) != 3 ||
        version != 2) {
        fprintf(stderr, "hase_predict: %s is not a version 2 predictor sheet\n", path);
        PMPI_Abort(MPI_COMM_WORLD, 2);
    }
    while (n_funcs < MAX_FUNCS && fscanf(f, "%31s", key) == 1) {
        sheet_fn *fn = &sheet[n_funcs];
        strcpy(fn->name, key);
        if (fscanf(f, "%lf %lf %lf %d %lf %d %lf %lf %d %lf %d", &fn->limit_bytes, &fn->c[0], &fn->s[0],
                   &fn->startup[0], &fn->k[0], &fn->data[0], &fn->c[1], &fn->s[1], &fn->startup[1], &fn->k[1],
                   &fn->data[1]) != 11) {
            fprintf(stderr, "hase_predict: %s: malformed line for %s\n", path, key);
            PMPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (fscanf(f, "%d", &fn->n_points) != 1 || fn->n_points < 0 || fn->n_points > MAX_POINTS) {
            fprintf(stderr, "hase_predict: %s: bad point count for %s\n", path, key);
            PMPI_Abort(MPI_COMM_WORLD, 2);
        }
        fn->point_procs = malloc(sizeof(int) * (size_t)(fn->n_points + 1));
        fn->point_bytes = malloc(sizeof(double) * (size_t)(fn->n_points + 1));
        fn->point_us = malloc(sizeof(double) * (size_t)(fn->n_points + 1));
        if (fn->point_procs == NULL || fn->point_bytes == NULL || fn->point_us == NULL) PMPI_Abort(MPI_COMM_WORLD, 2);
        for (int i = 0; i < fn->n_points; i++) {
            if (fscanf(f, "%d %lf %lf", &fn->point_procs[i], &fn->point_bytes[i], &fn->point_us[i]) != 3) {
                fprintf(stderr, "hase_predict: %s: malformed point %d of %s\n", path, i, key);
                PMPI_Abort(MPI_COMM_WORLD, 2);
            }
        }
        n_funcs++;
    }
    fclose(f);
    const char *scale = getenv("HASE_PREDICT_CPU_SCALE");
    if (scale != NULL) cpu_scale = atof(scale);
}

static double term_startup(int form, double p) {
    double lg = log(p) / log(log_base);
    switch (form) {
    case 1: return 1.0;
    case 2: return p;
    case 3: return lg;
    case 4: return p * p;
    case 5: return p * lg;
    default: return 0.0;
    }
}

static double term_data(int form, double p, double d) {
    double lg = log(p) / log(log_base);
    switch (form) {
    case 1: return d;
    case 2: return p * d;
    case 3: return lg * d;
    case 4: return p * p * d;
    case 5: return p * lg * d;
    default: return 0.0;
    }
}

/* Between two measured sizes at a measured count p, the measured time interpolated linearly in
 * bytes (as DataSheet::time_us with the `measured` band); -1 elsewhere. */
static double measured_us(const sheet_fn *fn, int p, double bytes) {
    for (int i = 0; i < fn->n_points; i++) {
        if (fn->point_procs[i] != p || fn->point_bytes[i] < bytes) continue;
        if (fn->point_bytes[i] == bytes) return fn->point_us[i];
        if (i == 0 || fn->point_procs[i - 1] != p) return -1.0;
        double b0 = fn->point_bytes[i - 1], t0 = fn->point_us[i - 1];
        return t0 + (fn->point_us[i] - t0) * ((bytes - b0) / (fn->point_bytes[i] - b0));
    }
    return -1.0;
}

/* The sheet's time in µs for `name` over p processes and `bytes` bytes (0 if the sheet lacks it). */
static double sheet_us(const char *name, int p, long bytes) {
    for (int i = 0; i < n_funcs; i++) {
        sheet_fn *fn = &sheet[i];
        if (strcmp(fn->name, name) != 0) continue;
        note_use(fn->name, p, bytes);
        double measured = measured_us(fn, p, (double)bytes);
        if (measured >= 0.0) return measured;
        int b = (double)bytes <= fn->limit_bytes ? 0 : 1;
        double d = (double)bytes / element_bytes;
        double t = fn->c[b] + fn->s[b] * term_startup(fn->startup[b], p) + fn->k[b] * term_data(fn->data[b], p, d);
        return t > 0.0 ? t : 0.0;
    }
    for (int i = 0; i < n_missing; i++) {
        if (strcmp(missing[i], name) == 0) return 0.0;
    }
    if (n_missing < MAX_FUNCS) snprintf(missing[n_missing++], sizeof missing[0], "%s", name);
    return 0.0;
}

static long long ps(double us) { return llround(us * 1e6); }

static void state(const char *name, double from, double to) {
    if (to > from) fprintf(out, "S %s %lld %lld\n", name, ps(from), ps(to));
}

/* Entering an MPI call: the CPU time since the last one becomes COMPUTE on the virtual clock. */
/* The clocks are read in the order that makes a burst's wall window [exit_wall, entry_wall] hold
 * the program's work only, and its CPU window one reading of the CPU clock more (cpu_gap_ns). */
static void enter(void) {
    entry_wall = hase_wall_ns();
    int64_t raw = hase_cpu_ns() - last_cpu, net = hase_net_burst_ns(raw, cpu_gap_ns);
    n_calls++;
    burst_cpu_ns += raw;
    burst_wall_ns += entry_wall - exit_wall;
    subtracted_ns += raw - net;
    double used = (double)net * 1e-3 * cpu_scale;
    state("COMPUTE", clock_us, clock_us + used);
    clock_us += used;
}

static void leave(void) {
    last_cpu = hase_cpu_ns();
    exit_wall = hase_wall_ns();
    mpi_wall_ns += exit_wall - entry_wall;
}

static int has_function(const char *name) {
    for (int i = 0; i < n_funcs; i++) {
        if (strcmp(sheet[i].name, name) == 0) return 1;
    }
    return 0;
}

/* selfsend(bytes) if a message between this rank and world rank `peer` is a copy to oneself on a
 * sheet with selfsend, else -1 (timed as a message to another rank). */
static double self_copy_us(int peer, long bytes) {
    if (peer != world_rank || !has_function("selfsend")) return -1.0;
    return sheet_us("selfsend", 2, bytes);
}

/* Stamps: the sender's virtual transfer start, sent ahead of the data on the shadow communicator. */
#define MAX_STAMPS 4096
static double stamp_value[MAX_STAMPS];
static MPI_Request stamp_req[MAX_STAMPS];
static int n_stamps;
/* This rank's latest transfers to each world rank (µs), as the data-sheet network level keeps
 * them: TWO_WAY_HISTORY (start, end) per rank in a ring, own_count[r] of them filled and
 * own_latest[r] the newest. Its chain follows the newest; a message from r that overlaps any of
 * them meets two-way traffic. */
#define TWO_WAY_HISTORY 32
static double *own_start, *own_end;
static int *own_count, *own_latest;

static void send_stamp(double start, long bytes, int dest, int tag, MPI_Comm comm) {
    int world_dest = hase_world_rank(comm, dest);
    if (world_dest < 0) return;
    if (n_stamps == MAX_STAMPS) {
        PMPI_Waitall(n_stamps, stamp_req, MPI_STATUSES_IGNORE);
        n_stamps = 0;
    }
    if (self_copy_us(world_dest, bytes) >= 0.0) {
        stamp_value[n_stamps] = start;
        PMPI_Isend(&stamp_value[n_stamps], 1, MPI_DOUBLE, world_dest, tag, shadow, &stamp_req[n_stamps]);
        n_stamps++;
        return;
    }
    double *starts = own_start + (size_t)world_dest * TWO_WAY_HISTORY;
    double *ends = own_end + (size_t)world_dest * TWO_WAY_HISTORY;
    int latest = own_latest[world_dest];
    if (own_count[world_dest] > 0) start = fmax(start, ends[latest] - sheet_us("recv", 2, 0));
    latest = own_count[world_dest] > 0 ? (latest + 1) % TWO_WAY_HISTORY : 0;
    if (own_count[world_dest] < TWO_WAY_HISTORY) own_count[world_dest]++;
    own_latest[world_dest] = latest;
    starts[latest] = start;
    ends[latest] = start + sheet_us("recv", 2, bytes);
    stamp_value[n_stamps] = start;
    PMPI_Isend(&stamp_value[n_stamps], 1, MPI_DOUBLE, world_dest, tag, shadow, &stamp_req[n_stamps]);
    n_stamps++;
}

static double receive_stamp(MPI_Comm comm, const MPI_Status *st) {
    double start = 0.0;
    int world_src = hase_world_rank(comm, st->MPI_SOURCE);
    if (world_src >= 0) PMPI_Recv(&start, 1, MPI_DOUBLE, world_src, st->MPI_TAG, shadow, MPI_STATUS_IGNORE);
    return start;
}

/* Transfers that touch within this (µs, below hase's picosecond) do not overlap: the clocks are
 * sums of doubles, the network level's are integer picoseconds. */
#define TOUCH_US 1e-6

/* The earliest a message of `bytes` from world rank `src` whose transfer started at `sent` can be
 * received: sent + recv(d), or sent + sendrecv(d) (at least recv(d)) when its transfer
 * [sent, sent + recv(d)) overlaps one of this rank's own to `src` (never for a message to oneself). */
static double arrival(int src, double sent, long bytes) {
    double one_way = sheet_us("recv", 2, bytes);
    if (src < 0 || src == world_rank || !has_function("sendrecv")) return sent + one_way;
    const double *starts = own_start + (size_t)src * TWO_WAY_HISTORY;
    const double *ends = own_end + (size_t)src * TWO_WAY_HISTORY;
    for (int i = 0; i < own_count[src]; i++) {
        if (starts[i] < sent + one_way - TOUCH_US && sent < ends[i] - TOUCH_US)
            return sent + fmax(sheet_us("sendrecv", 2, bytes), one_way);
    }
    return sent + one_way;
}

static void message(const MPI_Status *st, MPI_Comm comm, double depart, double arrive) {
    int got = 0;
    int src = hase_world_rank(comm, st->MPI_SOURCE);
    if (src < 0) return;
    PMPI_Get_count(st, MPI_BYTE, &got);
    fprintf(out, "M %d %lld %lld %d\n", src, ps(depart), ps(arrive), got);
}

static void start(void) {
    int size;
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    PMPI_Comm_dup(MPI_COMM_WORLD, &shadow);
    own_start = malloc(sizeof(double) * (size_t)size * TWO_WAY_HISTORY);
    own_end = malloc(sizeof(double) * (size_t)size * TWO_WAY_HISTORY);
    own_count = calloc((size_t)size, sizeof(int));
    own_latest = calloc((size_t)size, sizeof(int));
    if (own_start == NULL || own_end == NULL || own_count == NULL || own_latest == NULL) PMPI_Abort(MPI_COMM_WORLD, 3);
    read_sheet();
    out = hase_open_rank_file("HASE_PREDICT_DIR", "pred", world_rank, ".txt");
    fprintf(out, "hase-predict 1 %d %d\n", world_rank, size);
    cpu_gap_ns = hase_cpu_gap_ns();
    init_cpu = last_cpu = hase_cpu_ns();
    init_wall = exit_wall = hase_wall_ns();
}

int MPI_Init(int *argc, char ***argv) {
    int rc = PMPI_Init(argc, argv);
    start();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    start();
    return rc;
}

int MPI_Finalize(void) {
    enter();
    int64_t wall = hase_wall_ns() - init_wall, cpu = hase_cpu_ns() - init_cpu;
    PMPI_Waitall(n_stamps, stamp_req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < n_missing; i++) fprintf(out, "missing %s\n", missing[i]);
    for (int i = 0; i < n_uses; i++) {
        fprintf(out, "used %s %d %ld %ld\n", uses[i].name, uses[i].p, uses[i].min_bytes, uses[i].max_bytes);
    }
    fprintf(out, "measured %lld %lld %lld %lld %lld %lld %lld\n", (long long)n_calls, (long long)mpi_wall_ns,
            (long long)burst_cpu_ns, (long long)burst_wall_ns, (long long)cpu_gap_ns, (long long)subtracted_ns,
            (long long)(mpi_wall_ns - hase_real_ns));
    fprintf(out, "end %lld %lld %lld\n", ps(clock_us), (long long)wall, (long long)cpu);
    fclose(out);
    out = NULL;
    PMPI_Comm_free(&shadow);
    free(own_start);
    free(own_end);
    free(own_count);
    free(own_latest);
    return PMPI_Finalize();
}

/* The program's own timing reads the virtual clock: MPI_Wtime returns the prediction so far, s
 * (computation since the last call included), so a program that times itself prints predicted
 * times (`hase-time` lines, `hase mpi predict --measure`). Outside MPI_Init … MPI_Finalize it is
 * the real clock. */
double MPI_Wtime(void) {
    if (out == NULL) return PMPI_Wtime(); /* before MPI_Init or after MPI_Finalize */
    enter();
    double now = clock_us * 1e-6;
    leave();
    return now;
}

static int blocking_send(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm,
                         int (*op)(const void *, int, MPI_Datatype, int, int, MPI_Comm)) {
    enter();
    double begin = clock_us;
    send_stamp(begin, hase_bytes(c, t), d, tag, comm);
    int rc = op(b, c, t, d, tag, comm);
    double copy = self_copy_us(hase_world_rank(comm, d), hase_bytes(c, t));
    if (copy >= 0.0) clock_us += copy;
    else if (d >= 0) clock_us += sheet_us("send", 2, hase_bytes(c, t));
    state("SEND", begin, clock_us);
    leave();
    return rc;
}

/* The library's blocking sends, timed as the call's own part (HASE_REAL). */
#define TIMED_SEND(name, real)                                                              \
    static int name(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm) { \
        return HASE_REAL(real(b, c, t, d, tag, comm));                                     \
    }
TIMED_SEND(timed_send, PMPI_Send)
TIMED_SEND(timed_ssend, PMPI_Ssend)
TIMED_SEND(timed_rsend, PMPI_Rsend)
TIMED_SEND(timed_bsend, PMPI_Bsend)

int MPI_Send(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm) {
    return blocking_send(b, c, t, d, tag, comm, timed_send);
}
int MPI_Ssend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm) {
    return blocking_send(b, c, t, d, tag, comm, timed_ssend);
}
int MPI_Rsend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm) {
    return blocking_send(b, c, t, d, tag, comm, timed_rsend);
}
int MPI_Bsend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm) {
    return blocking_send(b, c, t, d, tag, comm, timed_bsend);
}

/* A receive that completed with status `st`, its receiver ready at `ready`: the message is drawn
 * from its sender's stamp, and the receive is done at the later of the sheet's shortest receive
 * after `ready` and the receive after the send. A receive from MPI_PROC_NULL is done at `ready`. */
static double received(MPI_Comm comm, const MPI_Status *st, double ready) {
    if (st->MPI_SOURCE < 0) return ready;
    double sent = receive_stamp(comm, st);
    int got = 0;
    PMPI_Get_count(st, MPI_BYTE, &got);
    double copy = self_copy_us(hase_world_rank(comm, st->MPI_SOURCE), got);
    if (copy >= 0.0) {
        double done = fmax(ready, sent + copy);
        message(st, comm, sent, done);
        return done;
    }
    double recv = sheet_us("recv", 2, got);
    double arrived = arrival(hase_world_rank(comm, st->MPI_SOURCE), sent, got);
    double done = fmax(ready + fmin(sheet_us("recvmin", 2, got), recv), arrived);
    message(st, comm, sent, done);
    return done;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Status *status) {
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    enter();
    double begin = clock_us;
    int rc = HASE_REAL(PMPI_Recv(buf, count, type, src, tag, comm, st));
    clock_us = received(comm, st, begin);
    state("RECV", begin, clock_us);
    leave();
    return rc;
}

static int nonblocking_send(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm, MPI_Request *req,
                            int (*op)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *)) {
    enter();
    double begin = clock_us;
    send_stamp(begin, hase_bytes(c, t), d, tag, comm);
    int rc = HASE_REAL(op(b, c, t, d, tag, comm, req));
    long bytes = hase_bytes(c, t);
    hase_req *r = hase_req_add(*req);
    r->comm = comm;
    r->start_us = begin;
    double copy = self_copy_us(hase_world_rank(comm, d), bytes);
    if (copy >= 0.0) {
        clock_us += copy;
        r->done_us = clock_us;
    } else if (d >= 0) {
        clock_us += sheet_us("isend1", 2, bytes);
        r->done_us = clock_us + sheet_us("isend2", 2, bytes);
    } else {
        r->done_us = begin;
    }
    state("SEND", begin, clock_us);
    leave();
    return rc;
}

int MPI_Isend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm, MPI_Request *req) {
    return nonblocking_send(b, c, t, d, tag, comm, req, PMPI_Isend);
}
int MPI_Issend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm, MPI_Request *req) {
    return nonblocking_send(b, c, t, d, tag, comm, req, PMPI_Issend);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request *req) {
    enter();
    double begin = clock_us;
    int rc = HASE_REAL(PMPI_Irecv(buf, count, type, src, tag, comm, req));
    hase_req *r = hase_req_add(*req);
    r->is_recv = 1;
    r->comm = comm;
    r->start_us = begin;
    /* An Irecv from oneself is part of the sheet's selfsend loop: no cost of its own. */
    if (src != MPI_PROC_NULL && self_copy_us(hase_world_rank(comm, src), 0) < 0.0) clock_us += sheet_us("irecv1", 2, 0);
    state("RECV", begin, clock_us);
    leave();
    return rc;
}

/* The virtual completion of the request `handle` was, now complete with status `st`. */
static double completion(MPI_Request handle, const MPI_Status *st) {
    hase_req *r = hase_req_find(handle);
    if (r == NULL) return clock_us;
    double done = r->done_us;
    if (r->is_recv) {
        done = r->start_us;
        if (st->MPI_SOURCE >= 0) {
            double sent = receive_stamp(r->comm, st);
            int got = 0;
            PMPI_Get_count(st, MPI_BYTE, &got);
            double copy = self_copy_us(hase_world_rank(r->comm, st->MPI_SOURCE), got);
            if (copy >= 0.0) {
                done = fmax(r->start_us, sent + copy);
                message(st, r->comm, sent, done);
                hase_req_remove(r);
                return done;
            }
            /* As the data-sheet network level: the receive rule with irecv1 + irecv2, and never
             * before the message arrives (send start + recv, or sendrecv when two-way). */
            double recv = sheet_us("recv", 2, got);
            done = fmax(r->start_us + fmin(sheet_us("recvmin", 2, got), recv),
                        sent + sheet_us("irecv1", 2, got) + sheet_us("irecv2", 2, got));
            done = fmax(done, arrival(hase_world_rank(r->comm, st->MPI_SOURCE), sent, got));
            message(st, r->comm, sent, done);
        }
    }
    hase_req_remove(r);
    return done;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status) {
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    MPI_Request handle = *req;
    enter();
    double begin = clock_us;
    int rc = HASE_REAL(PMPI_Wait(req, st));
    clock_us = fmax(clock_us, completion(handle, st));
    state("WAIT", begin, clock_us);
    leave();
    return rc;
}

/* A test that finds the request complete is taken as a wait for it (virtual time cannot know
 * whether it would have been complete yet). */
int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    MPI_Request handle = *req;
    enter();
    double begin = clock_us;
    int rc = HASE_REAL(PMPI_Test(req, flag, st));
    if (*flag) clock_us = fmax(clock_us, completion(handle, st));
    state("WAIT", begin, clock_us);
    leave();
    return rc;
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[]) {
    MPI_Request *handles = malloc(sizeof(MPI_Request) * (size_t)(count > 0 ? count : 1));
    MPI_Status *st = malloc(sizeof(MPI_Status) * (size_t)(count > 0 ? count : 1));
    if (handles == NULL || st == NULL) PMPI_Abort(MPI_COMM_WORLD, 3);
    memcpy(handles, reqs, sizeof(MPI_Request) * (size_t)count);
    enter();
    double begin = clock_us, latest = clock_us;
    int rc = HASE_REAL(PMPI_Waitall(count, reqs, st));
    for (int i = 0; i < count; i++) latest = fmax(latest, completion(handles[i], &st[i]));
    clock_us = latest;
    state("WAIT", begin, clock_us);
    if (statuses != MPI_STATUSES_IGNORE) memcpy(statuses, st, sizeof(MPI_Status) * (size_t)count);
    free(st);
    free(handles);
    leave();
    return rc;
}

int MPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status) {
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    MPI_Request *handles = malloc(sizeof(MPI_Request) * (size_t)(count > 0 ? count : 1));
    if (handles == NULL) PMPI_Abort(MPI_COMM_WORLD, 3);
    memcpy(handles, reqs, sizeof(MPI_Request) * (size_t)count);
    enter();
    double begin = clock_us;
    int rc = HASE_REAL(PMPI_Waitany(count, reqs, index, st));
    if (*index != MPI_UNDEFINED) clock_us = fmax(clock_us, completion(handles[*index], st));
    state("WAIT", begin, clock_us);
    free(handles);
    leave();
    return rc;
}

int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype stype, int dest, int stag, void *rb, int rcount,
                 MPI_Datatype rtype, int src, int rtag, MPI_Comm comm, MPI_Status *status) {
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    enter();
    double begin = clock_us;
    send_stamp(begin, hase_bytes(sc, stype), dest, stag, comm);
    int rc = HASE_REAL(PMPI_Sendrecv(sb, sc, stype, dest, stag, rb, rcount, rtype, src, rtag, comm, st));
    /* As its recording replays (an isend, a receive, a wait for the isend): the send is posted,
     * the receive starts, and the call ends when both are complete. */
    double posted = begin, sent = begin;
    double copy = self_copy_us(hase_world_rank(comm, dest), hase_bytes(sc, stype));
    if (copy >= 0.0) {
        posted = sent = begin + copy;
    } else if (dest >= 0) {
        long bytes = hase_bytes(sc, stype);
        posted = begin + sheet_us("isend1", 2, bytes);
        sent = posted + sheet_us("isend2", 2, bytes);
    }
    clock_us = fmax(received(comm, st, posted), sent);
    state("RECV", begin, clock_us);
    leave();
    return rc;
}

/* A collective: everyone's entry is exchanged first (MPI_MAX of the clocks over the group). */
static void collective_begin(double *begin, MPI_Comm comm) {
    enter();
    *begin = clock_us;
    double latest = clock_us;
    HASE_REAL(PMPI_Allreduce(begin, &latest, 1, MPI_DOUBLE, MPI_MAX, comm));
    clock_us = latest;
}

static void collective_end(const char *function, const char *state_name, double begin, long bytes, MPI_Comm comm) {
    int p = 1;
    PMPI_Comm_size(comm, &p);
    clock_us += sheet_us(function, p, bytes);
    state(state_name, begin, clock_us);
    leave();
}

/* The whole body of a collective's wrapper: `call` (the PMPI function) between collective_begin and
   collective_end, which time it by the sheet's `function` for `bytes` and show it as `state_name`. */
#define COLLECTIVE(function, state_name, bytes, call)             \
    double begin;                                                \
    collective_begin(&begin, comm);                              \
    int rc = HASE_REAL(call);                                    \
    collective_end(function, state_name, begin, (bytes), comm);  \
    return rc

/* As COLLECTIVE, for a size known only after the entry (`mean_block` below). */
#define V_COLLECTIVE(function, state_name, local, blocks, call)     \
    double begin;                                                  \
    collective_begin(&begin, comm);                                \
    long block = mean_block((local), (blocks), comm);              \
    int rc = HASE_REAL(call);                                      \
    collective_end(function, state_name, begin, block, comm);      \
    return rc

static long mean_block(long local, int blocks, MPI_Comm comm);

int MPI_Barrier(MPI_Comm comm) {
    COLLECTIVE("barrier", "BARRIER", 0, PMPI_Barrier(comm));
}

int MPI_Bcast(void *b, int c, MPI_Datatype t, int root, MPI_Comm comm) {
    COLLECTIVE("bcast", "BCAST", hase_bytes(c, t), PMPI_Bcast(b, c, t, root, comm));
}

int MPI_Reduce(const void *s, void *r, int c, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm) {
    COLLECTIVE("reduce", "REDUCE", hase_bytes(c, t), PMPI_Reduce(s, r, c, t, op, root, comm));
}

int MPI_Allreduce(const void *s, void *r, int c, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    COLLECTIVE("allreduce", "ALLREDUCE", hase_bytes(c, t), PMPI_Allreduce(s, r, c, t, op, comm));
}

int MPI_Gather(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, int root, MPI_Comm comm) {
    COLLECTIVE("gather", "GATHER", hase_bytes(sc, st), PMPI_Gather(s, sc, st, r, rc_, rt, root, comm));
}

int MPI_Scatter(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, int root, MPI_Comm comm) {
    COLLECTIVE("scatter", "SCATTER", hase_bytes(rc_, rt), PMPI_Scatter(s, sc, st, r, rc_, rt, root, comm));
}

int MPI_Allgather(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm) {
    COLLECTIVE("allgather", "ALLGATHER", hase_bytes(sc, st), PMPI_Allgather(s, sc, st, r, rc_, rt, comm));
}

int MPI_Alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm) {
    COLLECTIVE("alltoall", "ALLTOALL", hase_bytes(sc, st), PMPI_Alltoall(s, sc, st, r, rc_, rt, comm));
}

/* The collectives with per-rank counts are timed by the sheet's function of the fixed-count kind
 * for the mean block over the group: `local` bytes of this rank summed over the group and divided
 * by `blocks` (p for gatherv, scatterv and allgatherv, p² for alltoallv). The sum is one more
 * allreduce, after the entry and so outside the virtual clock. */
static long mean_block(long local, int blocks, MPI_Comm comm) {
    long total = 0;
    PMPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, comm);
    return blocks > 0 ? total / blocks : 0;
}

static long sum_bytes(int p, const int *c, MPI_Datatype t) {
    long total = 0;
    for (int i = 0; c != NULL && i < p; i++) total += hase_bytes(c[i], t);
    return total;
}

static int group_size(MPI_Comm comm) {
    int p = 1;
    PMPI_Comm_size(comm, &p);
    return p;
}

int MPI_Gatherv(const void *s, int sc, MPI_Datatype st, void *r, const int rcs[], const int displs[],
                MPI_Datatype rt, int root, MPI_Comm comm) {
    V_COLLECTIVE("gather", "GATHER", hase_bytes(sc, st), group_size(comm), PMPI_Gatherv(s, sc, st, r, rcs, displs, rt, root, comm));
}

int MPI_Scatterv(const void *s, const int scs[], const int displs[], MPI_Datatype st, void *r, int rc_,
                 MPI_Datatype rt, int root, MPI_Comm comm) {
    V_COLLECTIVE("scatter", "SCATTER", hase_bytes(rc_, rt), group_size(comm), PMPI_Scatterv(s, scs, displs, st, r, rc_, rt, root, comm));
}

int MPI_Allgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int rcs[], const int displs[],
                   MPI_Datatype rt, MPI_Comm comm) {
    V_COLLECTIVE("allgather", "ALLGATHER", hase_bytes(sc, st), group_size(comm), PMPI_Allgatherv(s, sc, st, r, rcs, displs, rt, comm));
}

int MPI_Alltoallv(const void *s, const int scs[], const int sd[], MPI_Datatype st, void *r, const int rcs[],
                  const int rd[], MPI_Datatype rt, MPI_Comm comm) {
    int p = group_size(comm);
    V_COLLECTIVE("alltoall", "ALLTOALL", sum_bytes(p, scs, st), p * p, PMPI_Alltoallv(s, scs, sd, st, r, rcs, rd, rt, comm));
}
