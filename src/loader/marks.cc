#include "qsel/loader/marks.h"

namespace qsel {

Mark Marks::at(std::string pointer) const {
  for (;;) {
    if (auto it = value.find(pointer); it != value.end()) return it->second;
    if (pointer.empty()) return {};
    pointer.erase(pointer.rfind('/'));
  }
}

Mark Marks::key_or_value(const std::string& pointer) const {
  if (auto it = key.find(pointer); it != key.end()) return it->second;
  return at(pointer);
}

std::string pointer_child(const std::string& parent, const std::string& token) {
  std::string out = parent + "/";
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

}  // namespace qsel
