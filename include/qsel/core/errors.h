// Errors every layer may raise. A UsageError is bad input from the user (an
// argument, a config file, a log): printed as one located line, exit code 2.
#pragma once
#include <stdexcept>

namespace qsel {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace qsel
