// qsel entry point: the one top-level catch.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "qsel/cli/app.h"
#include "qsel/core/disposal.h"
#include "qsel/core/text.h"

int main(int argc, char** argv) {
#if defined(__GLIBC__)
  // No fast bins: lint's records are millions of small blocks that live to the
  // end, and with fast bins glibc sweeps and merges every thread's freed small
  // blocks whenever a large block is freed (a loading thread ending frees one).
  // That sweep was a tenth of `qsel lint`'s time on 20,000 records; without it
  // small blocks still come from the per-thread cache. Measured in bench/.
  mallopt(M_MXFAST, 0);
#endif
  qsel::keep_until_exit(true);  // the process frees its graph by exiting, not block by block
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    int code = qsel::run(args, std::cout, std::cerr);
    // The answer is the output: one that did not reach stdout (a full disk) is an
    // error, not a success.
    errno = 0;
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
      std::cerr << "qsel: error: cannot write to standard output: " << (errno ? std::strerror(errno) : "a write failed (a full disk?)")
                << "\n";
      return 2;
    }
    return code;
  } catch (const std::exception& e) {
    std::cerr << qsel::capped_line("qsel: internal error: " + qsel::printable(e.what())) << "\n";
    return 2;
  } catch (...) {
    std::cerr << "qsel: internal error\n";
    return 2;
  }
}
