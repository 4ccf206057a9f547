// sp_images.h - kolo_sp's RAMs load "imem.hex" and "dmem.hex" of the working
// directory ($readmemh at the model's first eval: the testbench builds set
// IMEM_INIT/DMEM_INIT so). SpImages makes a directory of its own holding
// links to the images given, enters it, and after the first eval (leave())
// goes back and removes it. Returns false on a failure (errno set).
#pragma once
#include <cstdlib>
#include <string>
#include <unistd.h>

struct SpImages {
    char dir[64] = "/tmp/kolo_sp_images.XXXXXX";
    char cwd[4096] = {0};
    std::string li, ld;

    bool enter(const std::string &imem, const std::string &dmem) {
        if (!mkdtemp(dir) || !getcwd(cwd, sizeof cwd)) return false;
        auto abs = [&](const std::string &p) { return p[0] == '/' ? p : std::string(cwd) + "/" + p; };
        li = std::string(dir) + "/imem.hex";
        ld = std::string(dir) + "/dmem.hex";
        return !symlink(abs(imem).c_str(), li.c_str()) && !symlink(abs(dmem).c_str(), ld.c_str()) && !chdir(dir);
    }
    bool leave() {
        unlink(li.c_str());
        unlink(ld.c_str());
        bool ok = !chdir(cwd);
        rmdir(dir);
        return ok;
    }
};
