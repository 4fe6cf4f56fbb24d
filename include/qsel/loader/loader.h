// Reads a corpus directory (data/<kind-plural>/<id>.yaml) into validated records.
// Every problem in the corpus is collected in one pass and returned as data.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "qsel/core/problem.h"
#include "qsel/loader/record.h"
#include "qsel/loader/schema_set.h"
#include "qsel/loader/yaml_reader.h"

namespace qsel {

// What could be read of a record that failed its schema beyond repair: enough
// for references to it to resolve, so one mistake is one finding.
struct RecordStub {
  std::string id;
  Kind kind = Kind::Format;
  std::vector<std::string> aliases;
  std::string file;
};

struct Corpus {
  std::vector<Record> records;  // valid records, first of each id (lint: also repaired ones)
  std::vector<RecordStub> unvalidated;  // records that failed validation, as far as readable
  Problems problems;            // everything that kept a file from loading cleanly
  std::size_t files = 0;        // record files read
  std::string origin;           // "embedded" or the directory given
  std::string digest;           // sha256 over every file's path and bytes
};

// One file's text -> a record, or problems (appended to `out`). A record that
// fails its schema comes back with `repaired` set when removing the offending
// values makes it valid (the problems are still reported); otherwise nothing is
// returned and, when its id is readable, `stub` receives its id, kind and aliases.
std::optional<Record> load_record(std::string_view text, const std::string& file, Kind kind,
                                  const SchemaSet& schemas, Problems& out, const YamlLimits& limits = {},
                                  RecordStub* stub = nullptr);

// Called with each record as soon as it has loaded, on the thread that loaded
// it (so from several threads at once), before duplicate ids are dropped. It
// may change the record (lint checks it and prunes it there, while its tree is
// at hand and the next file is not read yet).
using RecordHook = std::function<void(Record&)>;

// A record file's text given in place of what the disk holds (lint's `-`: the
// text read from stdin, named by --stdin-filename). The file need not exist; it
// must sit in a kind folder of the corpus being loaded.
struct FileOverlay {
  std::filesystem::path path;
  std::string text;
  // Whether `file` (as a loader or a finding names it) is this file.
  bool is(const std::filesystem::path& file) const;
};

// `root` is a corpus directory, or a kind folder, or a single record file.
// Files are loaded on `threads` threads (0: one per core); the result is the
// same, in the same order, whatever the number. Without `with_digest` the
// corpus digest is left empty (lint has no use for it and it costs a hash of
// every byte).
Corpus load_corpus(const std::filesystem::path& root, const SchemaSet& schemas, const YamlLimits& limits = {},
                   unsigned threads = 0, bool with_digest = true, const RecordHook& on_record = {},
                   const FileOverlay* overlay = nullptr);

// Adds QS002 problems for repeated ids and keeps the first record of each id.
void drop_duplicate_ids(Corpus& corpus);

// The schemas found in a directory of <kind>.schema.json files.
std::map<std::string, nlohmann::json> read_schema_dir(const std::filesystem::path& dir);

}  // namespace qsel
