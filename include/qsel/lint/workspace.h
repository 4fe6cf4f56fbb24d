// What `qsel lint PATH…` loads. Every path is checked together so references
// resolve across them; a kind folder or a single record file brings the rest of
// its corpus along as context, but only findings inside the paths are reported.
#pragma once
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

#include "qsel/loader/loader.h"

namespace qsel {

struct Workspace {
  Corpus corpus;                              // every record loaded, context included
  std::vector<std::filesystem::path> scope;   // the requested paths, canonical
  std::vector<std::filesystem::path> scope_as_written;  // the same paths, absolute but not resolved

  // True when `file` (as shown) is one of the requested paths or under one.
  bool in_scope(const std::string& file) const;
  // Record files inside the scope, and the records they hold.
  std::size_t files_in_scope() const;
  std::vector<std::string> file_names_in_scope() const;  // sorted, as findings name them
  std::size_t records_in_scope() const;

 private:
  struct Folder {
    std::filesystem::path written, resolved;  // absolute as written; canonical
    bool written_ok = false;
    bool all_in = false;  // the folder is under a linted path, so every file in it is
  };
  mutable std::unordered_map<std::string, bool> in_scope_cache_;  // canonical paths cost syscalls
  mutable std::unordered_map<std::string, Folder> folder_cache_;
};

// Throws LintInputError when a path does not exist. `on_record` sees every
// record as it loads (see load_corpus).
// `overlay`: one file's text in place of the disk's (lint -); it need not exist on disk.
Workspace load_workspace(const std::vector<std::string>& paths, const SchemaSet& schemas, const RecordHook& on_record = {},
                         const FileOverlay* overlay = nullptr);

}  // namespace qsel
