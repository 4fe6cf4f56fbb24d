// qsel entry point: the one top-level catch.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "qsel/cli/app.h"

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    return qsel::run(args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "qsel: internal error: " << e.what() << "\n";
    return 2;
  } catch (...) {
    std::cerr << "qsel: internal error\n";
    return 2;
  }
}
