// ctl.h - kolo-sim's control socket: kolo-ctl connects to a UNIX socket,
// sends one command line ("links 5", "fail-link 0 2", ...), reads the
// answer until the server closes the connection. Answers start with "ok" or
// "error: <why>". The simulator polls the socket between cycles, so a
// command takes effect at a cycle boundary.
#ifndef KOLO_SIM_CTL_H
#define KOLO_SIM_CTL_H

#include <functional>
#include <string>
#include <vector>

namespace kolo_sim {

class CtlServer {
  public:
    // handler: arguments of one command -> answer text (lines)
    using Handler = std::function<std::string(const std::vector<std::string> &)>;
    CtlServer() = default;
    ~CtlServer();
    CtlServer(const CtlServer &) = delete;
    CtlServer &operator=(const CtlServer &) = delete;
    // Listen at path (an old socket file there is replaced). false + err.
    bool open(const std::string &path, std::string *err);
    // Serve the commands waiting now (never blocks). Returns how many.
    int poll(const Handler &h);
    const std::string &path() const { return path_; }

  private:
    int fd_ = -1;
    std::string path_;
};

} // namespace kolo_sim
#endif
