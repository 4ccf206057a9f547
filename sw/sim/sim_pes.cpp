// sim_pes.cpp - kolo-sim: the shared-memory segment, the PEs (fork, reap,
// kill), their MMIO rings and the NIs' DMA into their memory (sim_core.h).
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstring>

#include "kolo_sim_server.h"
#include "sim_core.h"

namespace kolo_sim {

// ---- NI environment callbacks ----------------------------------------------------------
int env_dma_read(void *user, uint64_t addr, void *buf, size_t len) {
    Node *nd = static_cast<Node *>(user);
    return nd->sim->dma(*nd, addr, buf, len, false);
}
int env_dma_write(void *user, uint64_t addr, const void *buf, size_t len) {
    Node *nd = static_cast<Node *>(user);
    return nd->sim->dma(*nd, addr, const_cast<void *>(buf), len, true);
}
int env_send(void *user, const kolo_pkt *p) {
    Node *nd = static_cast<Node *>(user);
    return nd->sim->ni_send(*nd, p);
}
void env_msi(void *user, unsigned) { static_cast<Node *>(user)->msi++; }

int Sim::dma(Node &nd, uint64_t addr, void *buf, size_t len, bool write) {
    if (len == 0)
        return 0;
    if (nd.pe < 0) {
        nd.dma_fail++;
        return -1;
    }
    // only a PE not yet reaped (and, kolo_sim_pe_access, attached and live)
    if (pe[static_cast<size_t>(nd.pe)].reaped ||
        kolo_sim_pe_access(shm, static_cast<unsigned>(nd.pe), addr, buf, len, write ? 1 : 0)) {
        nd.dma_fail++;
        if (o.verbose > 1)
            std::fprintf(stderr,
                         "kolo-sim: DMA %s of %zu bytes at %#" PRIx64 " in PE %d failed (%s)\n",
                         write ? "write" : "read", len, addr, nd.pe, std::strerror(errno));
        return -1;
    }
    (write ? nd.dma_wr : nd.dma_rd) += len;
    if (write)
        pe_wrote(nd.pe);
    return 0;
}

void Sim::mmio_read_done(int n, uint64_t token, uint64_t data, bool err) {
    int i = node[static_cast<size_t>(n)].pe;
    if (i < 0)
        return;
    if (card_gone(static_cast<unsigned>(i))) { // --fail-card: a read still on its way when it went
        data = ~0ull;
        err = false;
        pe[i].gone_reads++;
    }
    kolo_sim_read_answer(shm, static_cast<unsigned>(i), token, data, err ? 1 : 0);
    pe_wrote(i);
}

// ---- shared memory and PEs ---------------------------------------------------------------
// Segments of kolo-sim runs that were killed (SIGKILL leaves the name behind):
// /dev/shm/kolo-sim.<pid>.<n> whose pid no longer exists.
static void remove_stale_segments() {
    DIR *d = opendir("/dev/shm");
    if (!d)
        return;
    while (struct dirent *e = readdir(d)) {
        int pid;
        unsigned n;
        char tail;
        if (std::sscanf(e->d_name, "kolo-sim.%d.%u%c", &pid, &n, &tail) != 2 || pid <= 0)
            continue;
        if (kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        shm_unlink((std::string("/") + e->d_name).c_str());
    }
    closedir(d);
}

bool Sim::create_shm(std::string *err) {
    static unsigned seq = 0;
    remove_stale_segments();
    std::vector<uint16_t> ids(npes);
    for (unsigned i = 0; i < npes; i++)
        ids[i] = node[i].id;
    char msg[256] = "";
    if (o.server) { // a name PEs started by someone else can find (KOLO_SIM_SHM)
        shm_name = *o.server ? strf("/kolo-sim.server.%s", o.server)
                             : strf("/kolo-sim.server.%u", static_cast<unsigned>(getuid()));
        if (!server_name_free(err))
            return false;
        shm = kolo_sim_server_create(shm_name.c_str(), npes, topo.size, o.core_mhz, ids.data(),
                                     o.det, 1, &shm_size, msg, sizeof msg);
    }
    for (int tries = 0; !o.server && tries < 100 && !shm; tries++) {
        shm_name = strf("/kolo-sim.%d.%u", static_cast<int>(getpid()), seq++);
        shm = kolo_sim_server_create(shm_name.c_str(), npes, topo.size, o.core_mhz, ids.data(),
                                     o.det, 0, &shm_size, msg, sizeof msg);
        if (!shm && errno != EEXIST)
            break;
    }
    if (!shm) {
        *err = msg;
        return false;
    }
    det_free.assign(npes, 0);
    det_since.assign(npes, 0.0);
    det_wake.assign(npes, 0);
    det_pending.assign(npes, 0);
    return true;
}

void Sim::start_pes() {
    char **pargv = argv + o.prog_index;
    std::string snpes = std::to_string(npes);
    std::fflush(nullptr);
    for (unsigned i = 0; i < npes; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            std::fprintf(stderr, "kolo-sim: fork of PE %u: %s\n", i, std::strerror(errno));
            set_status(KOLO_SIM_EXIT_CHECK);
            kill_rest("fork failed");
            return;
        }
        if (pid == 0) {
            setpgid(0, 0);
            signal(SIGCHLD, SIG_DFL);
            signal(SIGINT, SIG_DFL);
            signal(SIGTERM, SIG_DFL);
            signal(SIGHUP, SIG_DFL);
            setenv("KOLO_SIM_SHM", shm_name.c_str(), 1);
            setenv("KOLO_PE", std::to_string(i).c_str(), 1);
            setenv("KOLO_NPES", snpes.c_str(), 1);
            // PCIe posted writes cannot fail visibly: tests that provoke DMA
            // write failures need to know which NI they run on
            setenv("KOLO_SIM_NI", o.ni == KOLO_NI_RTL ? "rtl" : "model", 1);
            if (ctl)
                setenv("KOLO_SIM_CTL", ctl->path().c_str(), 1);
            execv(prog_path.c_str(), pargv);
            std::fprintf(stderr, "kolo-sim: PE %u: exec %s: %s\n", i, prog_path.c_str(),
                         std::strerror(errno));
            _exit(KOLO_SIM_EXIT_NOEXEC);
        }
        setpgid(pid, pid);
        pe[i].pid = pid;
        node[i].pe = static_cast<int>(i);
        if (o.verbose)
            std::fprintf(stderr, "kolo-sim: PE %u pid %d on node %s\n", i, pid,
                         node_name(node[i].id).c_str());
    }
}

unsigned Sim::kill_rest(const char *why) {
    std::string who;
    if (o.server) { // not our processes: they see the simulator go and exit (status 3)
        __atomic_store_n(&shm->sim_alive, 0u, __ATOMIC_RELEASE);
        for (unsigned i = 0; i < npes; i++)
            if (!pe[i].reaped) {
                pe[i].reaped = true;
                pe[i].how = pe[i].attached ? "told to stop" : "never attached";
                who += " " + std::to_string(i);
            }
        if (!who.empty() && why && *why)
            std::fprintf(stderr, "kolo-sim: stopping PEs%s (%s)\n", who.c_str(), why);
        killed_rest = true;
        return who.empty() ? 0u : 1u;
    }
    for (unsigned i = 0; i < npes; i++) {
        Pe &x = pe[i];
        if (x.reaped || x.pid <= 0)
            continue;
        if (kill(-x.pid, SIGKILL) && kill(x.pid, SIGKILL))
            continue;
        x.killed_by_us = true;
        who += " " + std::to_string(i);
    }
    if (!who.empty() && why && *why)
        std::fprintf(stderr, "kolo-sim: killing PEs%s (%s)\n", who.c_str(), why);
    killed_rest = true;
    return who.empty() ? 0u : 1u;
}

// --server: the PEs are not ours; a PE is done when it has detached, or gone
// when its process is (a crash): status 1
void Sim::reap_server() {
    for (unsigned i = 0; i < npes; i++) {
        Pe &x = pe[i];
        if (x.reaped)
            continue;
        int32_t pid = 0;
        int seen = kolo_sim_server_pe_state(shm, i, &pid);
        if (seen == KOLO_SIM_PE_ABSENT)
            continue;
        if (!x.attached) {
            x.attached = true;
            x.pid = pid;
            if (o.verbose)
                std::fprintf(stderr, "kolo-sim: cycle %" PRIu64 ": PE %u (pid %d) attached\n",
                             cycle, i, pid);
        }
        if (seen == KOLO_SIM_PE_DETACHED) {
            x.reaped = true;
            x.how = "detached";
        } else if (seen == KOLO_SIM_PE_GONE) {
            x.reaped = true;
            x.status = 1;
            x.how = "gone without detaching (crashed or killed)";
            std::fprintf(stderr, "kolo-sim: PE %u (pid %d) is gone without detaching\n", i, pid);
            if (first_failed_pe < 0) {
                first_failed_pe = static_cast<int>(i);
                t_first_fail = now_s();
            }
            set_status(1);
        }
    }
}

void Sim::reap() {
    if (o.server) {
        g_sigchld = 0;
        reap_server();
        return;
    }
    g_sigchld = 0;
    for (;;) {
        int ws;
        pid_t pid = waitpid(-1, &ws, WNOHANG);
        if (pid <= 0)
            break;
        for (unsigned i = 0; i < npes; i++) {
            Pe &x = pe[i];
            if (x.pid != pid || x.reaped)
                continue;
            x.reaped = true;
            kolo_pe_slot *s = kolo_sim_shm_pe_slot(shm, i);
            __atomic_store_n(&s->state, static_cast<uint32_t>(KOLO_PE_EXITED), __ATOMIC_RELEASE);
            if (WIFEXITED(ws)) {
                x.status = WEXITSTATUS(ws);
                x.how = strf("exit %d", x.status);
            } else if (WIFSIGNALED(ws)) {
                x.status = 128 + WTERMSIG(ws);
                x.how = strf("killed by signal %d (%s)", WTERMSIG(ws), strsignal(WTERMSIG(ws)));
            }
            if (o.verbose)
                std::fprintf(stderr, "kolo-sim: cycle %" PRIu64 ": PE %u %s\n", cycle, i,
                             x.how.c_str());
            if (x.killed_by_us && WIFSIGNALED(ws)) {
                x.how += " (by kolo-sim)";
                break;
            }
            if (global_exit)
                break;
            if (x.status != 0) {
                if (WIFSIGNALED(ws))
                    std::fprintf(stderr, "kolo-sim: PE %u (pid %d) %s\n", i, pid, x.how.c_str());
                else
                    std::fprintf(stderr, "kolo-sim: PE %u exited with status %d\n", i, x.status);
                if (first_failed_pe < 0) {
                    first_failed_pe = static_cast<int>(i);
                    t_first_fail = now_s();
                }
                set_status(x.status);
            }
            break;
        }
    }
}

bool Sim::rings_empty() const {
    for (unsigned i = 0; i < npes; i++) {
        kolo_mmio_ring *r = kolo_sim_ring(shm, i);
        if (__atomic_load_n(&r->head, __ATOMIC_ACQUIRE) != r->tail)
            return false;
    }
    return true;
}

bool Sim::drain_rings(bool *bad) {
    bool act = false;
    for (unsigned i = 0; i < npes; i++) {
        kolo_mmio_ring *r = kolo_sim_ring(shm, i);
        uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
        uint64_t tail = r->tail;
        int broke = 0;
        if (!kolo_sim_ring_peek(shm, i, &broke) && !broke)
            continue;
        if (broke) {
            check_fail(strf("PE %u broke its MMIO ring (head %" PRIu64 ", tail %" PRIu64 ")", i,
                            head, tail));
            *bad = true;
            return act;
        }
        kolo_ni *ni = node[i].ni;
        // the request at tail is taken: off the ring (a full ring gets room: the PE
        // may wait for it)
        auto taken = [&]() {
            if (kolo_sim_ring_pop(shm, i))
                pe_wrote(static_cast<int>(i));
            tail++;
            pe[i].mmio++;
            act = true;
        };
        for (unsigned n = 0; (fast || n < o.mmio_per_cycle) && tail != head; n++) {
            const kolo_mmio_req &q = r->req[tail % KOLO_SIM_RING];
            int bar = static_cast<int>(q.bar);
            int is_read = 0;
            const unsigned len = kolo_sim_req_len(&q, &is_read);
            if (!len) {
                check_fail(strf("PE %u: MMIO request of unknown kind %u in its ring", i, q.kind));
                *bad = true;
                return act;
            }
            if (card_gone(i)) {
                // --fail-card: the card no longer answers its host. On PCIe a read to a
                // card that is gone completes with all ones (the root port's answer to a
                // request nobody takes); a write goes nowhere.
                if (is_read) {
                    kolo_sim_read_answer(shm, i, tail, len >= 8 ? ~0ull : (1ull << (8 * len)) - 1,
                                         0);
                    pe_wrote(static_cast<int>(i));
                    pe[i].gone_reads++;
                } else {
                    pe[i].gone_writes++;
                }
                taken();
                continue;
            }
            if (fast) { // --fast: every request there is, at this cycle
                if (is_read) {
                    uint64_t v = 0;
                    int rc = fast->mmio_read(static_cast<int>(i), bar, q.offset, len, &v);
                    kolo_sim_read_answer(shm, i, tail, v, rc);
                    pe_wrote(static_cast<int>(i));
                } else {
                    fast->mmio_write(static_cast<int>(i), bar, q.offset, q.data, len, cycle);
                }
                taken();
                continue;
            }
            if (cluster) {
                // the root complex queues requests in order; a full queue holds the PE back
                if (!cluster->mmio_ready(static_cast<int>(i)))
                    break;
                if (is_read)
                    cluster->mmio_read(static_cast<int>(i), bar, q.offset, len, tail);
                else
                    cluster->mmio_write(static_cast<int>(i), bar, q.offset, q.data, len);
                taken();
                continue;
            }
            // PCIe flow control: a write the NI cannot take now holds back this PE's later MMIO
            if (!is_read && !kolo_ni_mmio_write_ready(ni, bar, q.offset))
                break;
            if (is_read) {
                uint64_t v = 0;
                int rc = kolo_ni_mmio_read(ni, bar, q.offset, len, &v);
                if (o.wrong_node == static_cast<int>(i) + 1 && bar == 0 &&
                    q.offset == KOLO_CSR_NODE_ID && !rc) // a card that says the wrong node
                    v = node[0].id;
                kolo_sim_read_answer(shm, i, tail, v, rc);
                pe_wrote(static_cast<int>(i));
            } else {
                kolo_ni_mmio_write(ni, bar, q.offset, q.data, len);
            }
            taken();
        }
    }
    return act;
}

// --server: a segment of that name left by a server that is gone is removed; one
// whose server runs is an error
bool Sim::server_name_free(std::string *err) {
    char msg[256] = "";
    if (kolo_sim_server_name_free(shm_name.c_str(), msg, sizeof msg))
        return true;
    *err = msg;
    return false;
}

void Sim::announce_server() {
    for (unsigned i = 0; i < npes; i++)
        node[i].pe = static_cast<int>(i);
    std::fprintf(stderr,
                 "kolo-sim: serving %u PEs on a %ux%ux%u torus: start them with "
                 "KOLO_SIM_SHM=%s (PE i is the launcher's rank i, on node index i)\n",
                 npes, topo.size[0], topo.size[1], topo.size[2], shm_name.c_str());
    std::fflush(stderr);
}

// ---- deterministic co-simulation (--det; kolo_sim_shm.h, kolo_sim_server.h) ----------
// after every write into PE pe's memory, a read answer or room in a full ring.
// --det, within a step: only noted; det_flush makes it known at the step's end, so
// that a PE woken by the first write of a step does not run while the simulator
// makes the step's other writes (into it, or the wakes of its polls): what it saw
// would depend on how fast it ran (t_poll --fast: 2427 or 2434 cycles)
void Sim::pe_wrote(int i) {
    if (i < 0 || !shm)
        return;
    writes_to_pes++;
    if (det_step)
        det_pending[static_cast<size_t>(i)] = 1;
    else
        pe_bump(static_cast<unsigned>(i));
}

// make the writes into PE i known: bump its dma_seq, wake it if it sleeps
void Sim::pe_bump(unsigned i) { kolo_sim_pe_bump(shm, i); }

// --det: the step is over (every write of it made): bump and wake the PEs written to
void Sim::det_flush() {
    if (!det_step)
        return;
    det_step = false;
    kolo_sim_det_end_step(shm);
    for (unsigned i = 0; i < npes; i++)
        if (det_pending[i]) {
            det_pending[i] = 0;
            pe_bump(i);
        }
}

// PE i holds simulated time back no more: gone, stalled out, or waiting on us
// with nothing new to see since it last looked
bool Sim::pe_blocked(unsigned i) const {
    return pe[i].reaped || det_free[i] || kolo_sim_det_slot_blocked(shm, i);
}

// --det: nothing can change any more (the idle branch of the loop has seen the
// network, the NIs and the rings empty): every PE blocked, none stalled out, no
// fault event due, no kolo-ctl to send one
bool Sim::det_stuck() const {
    if (ctl || next_event < events.size() || det_wake_next() != UINT64_MAX)
        return false;
    if (o.fail_card && cycle < o.fail_card_at) // (the card goes later: a PE may then look)
        return false;
    for (unsigned i = 0; i < npes; i++)
        if (det_pending[i]) // (written to in this step: it will look again)
            return false;
    for (unsigned i = 0; i < npes; i++)
        if (det_free[i] || !pe_blocked(i) || pe[i].reaped)
            return false;
    // a PE that has detached and not yet exited is ending: its exit status, not
    // "stuck", says how the run ends (a PE whose card is gone at shmem_init
    // detached, and the run was called stuck before kolo-sim reaped it)
    // (only kolo-sim's own children: --server's PEs are not reaped here)
    for (unsigned i = 0; i < npes; i++)
        if (pe[i].pid > 0 &&
            __atomic_load_n(&kolo_sim_shm_pe_slot(shm, i)->state, __ATOMIC_ACQUIRE) ==
                KOLO_PE_EXITED)
            return false;
    return !det_partial();
}

// --det: the earliest poll wake of a live PE (kolo_sim_poll_start, det_wake), UINT64_MAX: none
uint64_t Sim::det_wake_next() const {
    uint64_t m = UINT64_MAX;
    for (unsigned i = 0; i < npes; i++)
        if (det_wake[i] && !pe[i].reaped && det_wake[i] < m)
            m = det_wake[i];
    return m;
}

// --det: a poll whose cycle has come sees dma_seq bumped (as after a write)
// (true: a PE was woken; it runs from now on, so nothing more in this step may look
// at what it writes - its ring - or the cycles would depend on how fast it runs)
bool Sim::det_wake_due() {
    bool any = false;
    for (unsigned i = 0; i < npes; i++) {
        if (kolo_sim_det_wake_due(shm, i, cycle, &det_wake[i], !pe[i].reaped)) {
            pe_wrote(static_cast<int>(i));
            any = true;
        }
    }
    return any;
}

// --det, every PE blocked (so the cycle now is the same on every run): the polls
// that asked for a wake since (kolo_pe_slot wake_after) get one that many cycles on
void Sim::det_wake_take() {
    for (unsigned i = 0; i < npes; i++)
        kolo_sim_det_take_wake(shm, i, cycle, 1, &det_wake[i]);
}

// --det: a PE counts as blocked but one of its threads is outside every wait
// (kolo_sim_shm.h wait_partial): it may still act on its own
bool Sim::det_partial() const {
    for (unsigned i = 0; i < npes; i++)
        if (!pe[i].reaped && kolo_sim_det_slot_partial(shm, i))
            return true;
    return false;
}

// --det: wait until every PE is blocked; false when the run ends meanwhile
// (signal, global exit, wall-clock timeout): the caller goes on to end it
bool Sim::det_hold() {
    double t0 = 0;
    auto blocked = [](void *self, unsigned i) -> int {
        return static_cast<const Sim *>(self)->pe_blocked(i) ? 1 : 0;
    };
    for (;;) {
        uint32_t ev = kolo_sim_det_event(shm);
        if (kolo_sim_det_try_step(shm, blocked, this)) { // (kolo_sim_server.h: det_busy set)
            det_step = true;
            return true;
        }
        if (g_stop || g_sigchld || __atomic_load_n(&shm->exit_request, __ATOMIC_ACQUIRE) ||
            failed_check || killed_rest)
            return false;
        double now = now_s();
        if (t0 == 0)
            t0 = now;
        if (o.timeout_s > 0 && now - t_start >= o.timeout_s) {
            timed_out = true;
            end_msg = strf("timeout: %.1f s wall clock (--timeout) at cycle %" PRIu64,
                           now - t_start, cycle);
            return false;
        }
        // a PE that runs (computes, or waits on something else than us) for a long
        // time: from now on it does not hold time back (the run is no longer exact)
        for (unsigned i = 0; i < npes; i++) {
            if (pe_blocked(i)) {
                det_since[i] = 0;
                continue;
            }
            if (det_since[i] == 0)
                det_since[i] = now;
            else if (now - det_since[i] >= o.det_stall_s) {
                det_free[i] = 1;
                det_stalls++;
                std::fprintf(stderr,
                             "kolo-sim: cycle %" PRIu64 ": --det: PE %u has run %.0f s without "
                             "waiting on the simulator; it no longer holds simulated time back "
                             "(the cycles of this run are not exact any more)\n",
                             cycle, i, now - det_since[i]);
            }
        }
        det_waits++;
        kolo_sim_det_wait(shm, ev, 2000000L); // a PE starting to wait wakes us
    }
}

} // namespace kolo_sim
