#include "qsel/core/disposal.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace qsel {
namespace {

std::atomic<bool> keeping{false};

// Never destroyed: what is parked here is freed by the process exit.
std::vector<std::shared_ptr<void>>& parked() {
  static auto* list = new std::vector<std::shared_ptr<void>>;
  return *list;
}

std::mutex& parked_mutex() {
  static auto* m = new std::mutex;
  return *m;
}

}  // namespace

void keep_until_exit(bool on) { keeping = on; }
bool keeping_until_exit() { return keeping; }

namespace detail {
void park(std::shared_ptr<void> value) {
  std::lock_guard lock(parked_mutex());
  parked().push_back(std::move(value));
}
}  // namespace detail

}  // namespace qsel
