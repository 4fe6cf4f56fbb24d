// Memory the process is about to hand back to the operating system anyway.
//
// A command that builds a large graph and then exits would spend a tenth of its
// time freeing millions of small blocks one by one. The command-line entry
// point turns on keep_until_exit(); dispose() then parks a value on a list that
// is never freed (still reachable, so leak checkers stay quiet), and the exit
// takes the memory back at once. Everywhere else (tests, libraries) dispose()
// is a plain destruction. Only values whose destructors do nothing but free
// memory may be disposed of this way: nothing else is ever run.
#pragma once
#include <memory>
#include <type_traits>
#include <utility>

namespace qsel {

void keep_until_exit(bool on);
bool keeping_until_exit();

namespace detail {
void park(std::shared_ptr<void> value);
}

template <class T>
void dispose(T&& value) {
  static_assert(!std::is_lvalue_reference_v<T>, "dispose takes a value to move from, never a copy");
  if (!keeping_until_exit()) return;  // the caller's value is destroyed as usual
  detail::park(std::make_shared<std::decay_t<T>>(std::forward<T>(value)));
}

}  // namespace qsel
