// ctl.cpp - the control socket of kolo-sim (see ctl.h).
#include "ctl.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace kolo_sim {

CtlServer::~CtlServer() {
    if (fd_ >= 0) {
        close(fd_);
        unlink(path_.c_str());
    }
}

// The socket is made under a temporary name and renamed to path only once it
// listens: a client that waits for path to exist never finds a socket that
// refuses the connection (it did, between bind and listen, on a loaded
// machine: sim-fault-ctl's first kolo-ctl call failed with "Connection refused").
// Tests only (sim-fault-ctl, docs/firmware.md): KOLO_SIM_TEST_CTL_WINDOW_MS=N
// holds the window between bind and listen open N ms; KOLO_SIM_TEST_CTL_OLD_ORDER=1
// binds at path itself, the order before, which that window must make fail.
bool CtlServer::open(const std::string &path, std::string *err) {
    sockaddr_un a{};
    const char *win = getenv("KOLO_SIM_TEST_CTL_WINDOW_MS");
    const char *old = getenv("KOLO_SIM_TEST_CTL_OLD_ORDER");
    const bool old_order = old && !strcmp(old, "1");
    const long window_ms = win ? strtol(win, nullptr, 10) : 0;
    const std::string tmp = old_order ? path : path + ".new";
    if (tmp.size() >= sizeof a.sun_path) {
        *err = "control socket path too long: " + path;
        return false;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *err = std::string("socket: ") + strerror(errno);
        return false;
    }
    a.sun_family = AF_UNIX;
    memcpy(a.sun_path, tmp.c_str(), tmp.size() + 1);
    unlink(tmp.c_str());
    bool bad = bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0;
    if (!bad && window_ms > 0 && window_ms <= 60000) {
        struct timespec ts = {window_ms / 1000, (window_ms % 1000) * 1000000L};
        while (nanosleep(&ts, &ts) && errno == EINTR)
            ;
    }
    if (bad || listen(fd, 8) || (!old_order && rename(tmp.c_str(), path.c_str()))) {
        *err = "control socket " + path + ": " + strerror(errno);
        unlink(tmp.c_str());
        close(fd);
        return false;
    }
    fd_ = fd;
    path_ = path;
    return true;
}

static std::vector<std::string> split(const std::string &line) {
    std::vector<std::string> v;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) i++;
        size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t') j++;
        if (j > i) v.push_back(line.substr(i, j - i));
        i = j;
    }
    return v;
}

int CtlServer::poll(const Handler &h) {
    if (fd_ < 0) return 0;
    int served = 0;
    for (;;) {
        int c = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (c < 0) break;
        // one command line; the client sends it at once, wait briefly for it
        std::string line;
        char buf[512];
        for (int tries = 0; tries < 100 && line.find('\n') == std::string::npos && line.size() < 4096; tries++) {
            pollfd p{c, POLLIN, 0};
            if (::poll(&p, 1, 10) <= 0) continue;
            ssize_t n = read(c, buf, sizeof buf);
            if (n <= 0) break;
            line.append(buf, static_cast<size_t>(n));
        }
        size_t nl = line.find('\n');
        if (nl != std::string::npos) line.resize(nl);
        std::string answer = nl == std::string::npos ? "error: incomplete command\n" : h(split(line));
        size_t off = 0;
        while (off < answer.size()) {
            ssize_t n = write(c, answer.data() + off, answer.size() - off);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            off += static_cast<size_t>(n);
        }
        close(c);
        served++;
    }
    return served;
}

} // namespace kolo_sim
