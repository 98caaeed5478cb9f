/* Shared by the hase MPI shims (hase_record.c, hase_predict.c), loaded with LD_PRELOAD: the
 * thread CPU clock, the wall clock, output files per rank, and a table of live requests keyed
 * by their MPI_Request handle. Header-only: each shim is one translation unit. */
#ifndef HASE_SHIM_H
#define HASE_SHIM_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t hase_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* CPU time of this thread: stable when ranks share cores, unlike wall time. */
static int64_t hase_cpu_ns(void) { return hase_ns(CLOCK_THREAD_CPUTIME_ID); }
static int64_t hase_wall_ns(void) { return hase_ns(CLOCK_MONOTONIC); }

/* The shims' own cost that a computation burst absorbs: the thread CPU time the shims' path
 * between two calls takes with no work between them — leaving a call reads the CPU clock, then
 * the wall clock; entering the next reads the wall clock, then the CPU clock (readings that may
 * be system calls). An empty burst reads as this much; the median of a short loop, ns. */
static inline int64_t hase_cpu_gap_ns(void) {
    enum { N = 401 };
    int64_t gaps[N];
    volatile int64_t sink = 0;
    for (int i = 0; i < N; i++) {
        int64_t a = hase_cpu_ns();
        sink += hase_wall_ns();
        sink += hase_wall_ns();
        gaps[i] = hase_cpu_ns() - a;
    }
    (void)sink;
    for (int i = 1; i < N; i++) { /* insertion sort: N is small */
        int64_t g = gaps[i];
        int j = i - 1;
        while (j >= 0 && gaps[j] > g) {
            gaps[j + 1] = gaps[j];
            j--;
        }
        gaps[j + 1] = g;
    }
    return gaps[N / 2];
}

/* The shims' own work inside a call's wall window, measured: HASE_REAL(call) times `call`, the
 * MPI library's function a wrapper stands for, with the wall clock, and adds it to hase_real_ns. A
 * shim sums its calls' wall windows; the windows less hase_real_ns are its in-call work (clock
 * readings, formatting and writing its record, its bookkeeping and its own messages). */
static int64_t hase_real_ns, hase_real_from_ns;
static inline void hase_real_enter(void) { hase_real_from_ns = hase_wall_ns(); }
static inline int hase_real_leave(int rc) {
    hase_real_ns += hase_wall_ns() - hase_real_from_ns;
    return rc;
}
#define HASE_REAL(call) (hase_real_enter(), hase_real_leave(call))

/* A measured burst with the shims' own per-call cost taken out (never below 0). */
static inline int64_t hase_net_burst_ns(int64_t raw_ns, int64_t gap_ns) {
    return raw_ns > gap_ns ? raw_ns - gap_ns : 0;
}

/* Open DIR/<prefix><rank><suffix> for writing, or exit with a message naming the file. */
static FILE *hase_open_rank_file(const char *dir_env, const char *prefix, int rank, const char *suffix) {
    const char *dir = getenv(dir_env);
    if (dir == NULL) {
        fprintf(stderr, "hase shim: %s is not set\n", dir_env);
        exit(2);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%d%s", dir, prefix, rank, suffix);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "hase shim: cannot write %s\n", path);
        exit(2);
    }
    return f;
}

static long hase_bytes(int count, MPI_Datatype type) {
    int size = 0;
    if (type != MPI_DATATYPE_NULL) PMPI_Type_size(type, &size);
    return (long)count * size;
}

/* Live requests: what each shim remembers about a request until it completes. */
typedef struct {
    MPI_Request handle;
    MPI_Comm comm;   /* the communicator of the call (sources are translated to world ranks) */
    long id;         /* per-rank request number, 0, 1, … */
    int is_recv;     /* 1 for Irecv */
    int peer, tag;   /* destination (send) or requested source (receive), world ranks; tag asked for */
    long bytes;      /* bytes sent, or the receive buffer's capacity */
    double start_us; /* predictor: virtual time the call was made */
    double done_us;  /* predictor: virtual completion of a send request */
    double stamp_us; /* predictor: sender's virtual send start */
} hase_req;

#define HASE_MAX_REQS 65536
static hase_req hase_reqs[HASE_MAX_REQS];
static int hase_nreqs;
static long hase_next_req;

static hase_req *hase_req_add(MPI_Request handle) {
    if (hase_nreqs == HASE_MAX_REQS) {
        fprintf(stderr, "hase shim: more than %d requests pending at once\n", HASE_MAX_REQS);
        PMPI_Abort(MPI_COMM_WORLD, 3);
    }
    hase_req *r = &hase_reqs[hase_nreqs++];
    memset(r, 0, sizeof *r);
    r->handle = handle;
    r->id = hase_next_req++;
    return r;
}

static hase_req *hase_req_find(MPI_Request handle) {
    for (int i = hase_nreqs - 1; i >= 0; i--) {
        if (hase_reqs[i].handle == handle) return &hase_reqs[i];
    }
    return NULL;
}

static void hase_req_remove(hase_req *r) { *r = hase_reqs[--hase_nreqs]; }

/* A communicator rank as a rank of MPI_COMM_WORLD (wildcards and PROC_NULL pass through). */
static int hase_world_rank(MPI_Comm comm, int r) {
    if (comm == MPI_COMM_WORLD || r < 0) return r;
    MPI_Group g, world;
    int out = r;
    PMPI_Comm_group(comm, &g);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_translate_ranks(g, 1, &r, world, &out);
    PMPI_Group_free(&g);
    PMPI_Group_free(&world);
    return out;
}

/* Fortran programs: Open MPI's Fortran bindings call the PMPI C functions, so a shim sees a
 * Fortran program only through bindings of its own. These are gfortran's names (`mpi_send_`) for
 * the calls the shims time; each converts its handles and calls the C function of the same name,
 * which is the shim's wrapper. (MPI_STATUS_IGNORE, MPI_IN_PLACE and MPI_BOTTOM of Fortran are
 * not recognised.) */
#define HASE_F_STATUS ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))

void mpi_init_(MPI_Fint *ierr) { *ierr = MPI_Init(NULL, NULL); }
void mpi_finalize_(MPI_Fint *ierr) { *ierr = MPI_Finalize(); }

/* A Fortran program's own timing (MPI_WTIME) reads what a C program's MPI_Wtime does: under the
 * predictor the virtual clock, under the recorder the real one. */
double mpi_wtime_(void) { return MPI_Wtime(); }

void mpi_send_(const void *b, MPI_Fint *c, MPI_Fint *t, MPI_Fint *d, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *ierr) {
    *ierr = MPI_Send(b, *c, MPI_Type_f2c(*t), *d, *tag, MPI_Comm_f2c(*comm));
}

void mpi_recv_(void *b, MPI_Fint *c, MPI_Fint *t, MPI_Fint *s, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status,
               MPI_Fint *ierr) {
    MPI_Status st;
    *ierr = MPI_Recv(b, *c, MPI_Type_f2c(*t), *s, *tag, MPI_Comm_f2c(*comm), &st);
    MPI_Status_c2f(&st, status);
}

void mpi_isend_(const void *b, MPI_Fint *c, MPI_Fint *t, MPI_Fint *d, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *req,
                MPI_Fint *ierr) {
    MPI_Request r;
    *ierr = MPI_Isend(b, *c, MPI_Type_f2c(*t), *d, *tag, MPI_Comm_f2c(*comm), &r);
    *req = MPI_Request_c2f(r);
}

void mpi_irecv_(void *b, MPI_Fint *c, MPI_Fint *t, MPI_Fint *s, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *req,
                MPI_Fint *ierr) {
    MPI_Request r;
    *ierr = MPI_Irecv(b, *c, MPI_Type_f2c(*t), *s, *tag, MPI_Comm_f2c(*comm), &r);
    *req = MPI_Request_c2f(r);
}

void mpi_wait_(MPI_Fint *req, MPI_Fint *status, MPI_Fint *ierr) {
    MPI_Request r = MPI_Request_f2c(*req);
    MPI_Status st;
    *ierr = MPI_Wait(&r, &st);
    *req = MPI_Request_c2f(r);
    MPI_Status_c2f(&st, status);
}

void mpi_waitall_(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *statuses, MPI_Fint *ierr) {
    int count = *n;
    MPI_Request *r = malloc(sizeof(MPI_Request) * (size_t)(count > 0 ? count : 1));
    MPI_Status *st = malloc(sizeof(MPI_Status) * (size_t)(count > 0 ? count : 1));
    if (r == NULL || st == NULL) PMPI_Abort(MPI_COMM_WORLD, 3);
    for (int i = 0; i < count; i++) r[i] = MPI_Request_f2c(reqs[i]);
    *ierr = MPI_Waitall(count, r, st);
    for (int i = 0; i < count; i++) {
        reqs[i] = MPI_Request_c2f(r[i]);
        MPI_Status_c2f(&st[i], statuses + (size_t)i * (size_t)HASE_F_STATUS);
    }
    free(st);
    free(r);
}

void mpi_barrier_(MPI_Fint *comm, MPI_Fint *ierr) { *ierr = MPI_Barrier(MPI_Comm_f2c(*comm)); }

void mpi_bcast_(void *b, MPI_Fint *c, MPI_Fint *t, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr) {
    *ierr = MPI_Bcast(b, *c, MPI_Type_f2c(*t), *root, MPI_Comm_f2c(*comm));
}

void mpi_reduce_(const void *s, void *r, MPI_Fint *c, MPI_Fint *t, MPI_Fint *op, MPI_Fint *root, MPI_Fint *comm,
                 MPI_Fint *ierr) {
    *ierr = MPI_Reduce(s, r, *c, MPI_Type_f2c(*t), MPI_Op_f2c(*op), *root, MPI_Comm_f2c(*comm));
}

void mpi_allreduce_(const void *s, void *r, MPI_Fint *c, MPI_Fint *t, MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr) {
    *ierr = MPI_Allreduce(s, r, *c, MPI_Type_f2c(*t), MPI_Op_f2c(*op), MPI_Comm_f2c(*comm));
}

void mpi_alltoall_(const void *s, MPI_Fint *sc, MPI_Fint *st, void *r, MPI_Fint *rc, MPI_Fint *rt, MPI_Fint *comm,
                   MPI_Fint *ierr) {
    *ierr = MPI_Alltoall(s, *sc, MPI_Type_f2c(*st), r, *rc, MPI_Type_f2c(*rt), MPI_Comm_f2c(*comm));
}

void mpi_comm_split_(MPI_Fint *comm, MPI_Fint *color, MPI_Fint *key, MPI_Fint *made, MPI_Fint *ierr) {
    MPI_Comm c;
    *ierr = MPI_Comm_split(MPI_Comm_f2c(*comm), *color, *key, &c);
    *made = MPI_Comm_c2f(c);
}

void mpi_comm_dup_(MPI_Fint *comm, MPI_Fint *made, MPI_Fint *ierr) {
    MPI_Comm c;
    *ierr = MPI_Comm_dup(MPI_Comm_f2c(*comm), &c);
    *made = MPI_Comm_c2f(c);
}

#endif
