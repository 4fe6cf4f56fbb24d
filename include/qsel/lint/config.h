// The `.qsel.yaml` config file: found upward from the linted path, read with the
// project's strict YAML reader. Keys: select, ignore, strict, baseline,
// per-file-ignores ({glob: [codes]}). Every mistake is a located LintInputError.
#pragma once
#include <filesystem>
#include <optional>

#include "qsel/lint/settings.h"

namespace qsel {

inline constexpr const char* kConfigFileName = ".qsel.yaml";

// The nearest .qsel.yaml in `start` (a file's folder, or the folder) or above it,
// up to the repository's root (a folder holding .git): never from outside the checkout.
std::optional<std::filesystem::path> find_config(const std::filesystem::path& start);

LintSettings read_config(const std::filesystem::path& file);

}  // namespace qsel
