// Engine command lines (include/qsel/graph/engine_cli.h): flags split out of a
// command by words, a program found by its name, and the launch templates listed.
#include "qsel/graph/engine_cli.h"
#include "qsel/core/json_number.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace qsel {
using nlohmann::json;
namespace {

bool numeric(const std::string& w) {  // "-1", "-0.5": a value, not a flag
  return w.size() > 1 && (std::isdigit(static_cast<unsigned char>(w[1])) || w[1] == '.');
}

// The command after its leading NAME=value words (the environment it runs with).
std::string after_env(const std::string& command) {
  std::size_t at = 0;
  for (;;) {
    while (at < command.size() && std::isspace(static_cast<unsigned char>(command[at]))) ++at;
    std::size_t end = at;
    while (end < command.size() && !std::isspace(static_cast<unsigned char>(command[end]))) ++end;
    if (at == end || !env_assignment(command.substr(at, end - at))) return command.substr(at);
    at = end;
  }
}

bool starts_with_program(const std::string& command, const std::string& program) {
  if (program.empty() || command.compare(0, program.size(), program) != 0) return false;
  return command.size() == program.size() || std::isspace(static_cast<unsigned char>(command[program.size()]));
}

}  // namespace

std::vector<std::string> command_words(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (std::isspace(static_cast<unsigned char>(ch))) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

bool env_assignment(const std::string& word) {
  auto eq = word.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  if (!(std::isalpha(static_cast<unsigned char>(word[0])) || word[0] == '_')) return false;
  return std::all_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(eq),
                     [](unsigned char ch) { return std::isalnum(ch) || ch == '_'; });
}

std::vector<std::string> command_env(const std::string& command) {
  std::vector<std::string> out;
  for (const auto& w : command_words(command)) {
    if (!env_assignment(w)) break;  // the program: what follows are its arguments
    out.push_back(w.substr(0, w.find('=')));
  }
  return out;
}

std::vector<std::string> command_flags(const std::string& command) {
  std::vector<std::string> out;
  for (auto w : command_words(command)) {
    if (w.size() < 2 || w[0] != '-' || numeric(w)) continue;
    if (auto eq = w.find('='); eq != std::string::npos) w.resize(eq);
    out.push_back(w);
  }
  return out;
}

const json* cli_program(const Record& engine, const std::string& command_line) {
  const std::string command = after_env(command_line);
  const json* best = nullptr;
  std::size_t best_len = 0;
  if (!engine.data.is_object() || !engine.data.contains("cli") || !engine.data["cli"].is_array()) return nullptr;
  for (const auto& p : engine.data["cli"]) {
    std::string name = p.value("program", "");
    if (starts_with_program(command, name) && name.size() > best_len) {
      best = &p;
      best_len = name.size();
    }
  }
  return best;
}

std::vector<std::string> unknown_flags(const Record& engine, const std::string& command_line, bool* program_known) {
  const std::string command = after_env(command_line);
  const json* p = cli_program(engine, command);
  if (program_known) *program_known = p != nullptr;
  std::string args = p ? command.substr(p->value("program", "").size()) : command;
  std::vector<std::string> out;
  for (const auto& f : command_flags(args)) {
    bool known = false;
    if (p)
      for (const auto& x : p->value("flags", json::array()))
        if (x.is_string() && x.get<std::string>() == f) known = true;
    if (!known && std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  }
  return out;
}

std::vector<std::string> unknown_env(const Record& engine, const std::string& command, bool* program_known) {
  const json* p = cli_program(engine, command);
  if (program_known) *program_known = p != nullptr;
  std::vector<std::string> out;
  for (const auto& name : command_env(command)) {
    bool known = false;
    if (p)
      for (const auto& x : p->value("env", json::array()))
        if (x.is_string() && x.get<std::string>() == name) known = true;
    if (!known && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

std::vector<LaunchTemplate> launch_templates(const Record& engine) {
  std::vector<LaunchTemplate> out;
  if (!engine.data.is_object()) return out;
  const json launch = engine.data.value("launch", json());
  if (!launch.is_object()) return out;
  std::string program = launch.value("program", "");
  std::string server = launch.value("server", program);
  // A template's NAME=value words are the server's environment; its other words, the program's arguments.
  auto add = [&](const std::string& pointer, const std::string& text) {
    std::vector<std::string> env, args;
    for (const auto& w : command_words(text)) (env_assignment(w) ? env : args).push_back(w);
    if (!env.empty()) out.push_back({pointer, fmt::format("{} {}", fmt::join(env, " "), server)});
    if (!args.empty() || env.empty()) out.push_back({pointer, args.empty() ? program : fmt::format("{} {}", program, fmt::join(args, " "))});
  };
  for (const auto& [key, value] : launch.items()) {
    if (key == "program" || key == "server" || key == "note" || key == "source" || key == "model_import_note" || key == "prompt_mode_default" || !value.is_string()) continue;
    if (key == "model_import" || key == "model_download") out.push_back({"/launch/" + key, value.get<std::string>()});  // a whole command of its own program
    else add("/launch/" + key, value.get<std::string>());
  }
  // Environment the engine's guidance sets on some targets (launch.environment): NAME=value before the program.
  const json environment = launch.value("environment", json::array());
  if (environment.is_array())
    for (std::size_t i = 0; i < environment.size(); ++i)
      if (environment[i].is_object() && environment[i].value("set", json()).is_string())
        add(fmt::format("/launch/environment/{}/set", i), environment[i]["set"].get<std::string>());
  // The converter that makes the file `model` takes: its own program's flags.
  const json convert = launch.value("convert", json());
  if (convert.is_object() && convert.value("program", json()).is_string() && convert.value("line", json()).is_string())
    out.push_back({"/launch/convert/line", convert["program"].get<std::string>() + " " + convert["line"].get<std::string>()});
  const json tp_flags = object_field(object_field(engine.data, "tensor_parallel"), "flags");
  for (const auto& [key, value] : tp_flags.items())
    if (value.is_string()) add("/tensor_parallel/flags/" + key, value.get<std::string>());
  const json ext = object_field(launch, "context_extension");
  if (ext.contains("flags") && ext["flags"].is_string()) add("/launch/context_extension/flags", ext["flags"].get<std::string>());
  const json kv = array_field(launch, "kv_cache");
  for (std::size_t i = 0; kv.is_array() && i < kv.size(); ++i)
    if (kv[i].is_object() && kv[i].contains("flags") && kv[i]["flags"].is_string())
      add("/launch/kv_cache/" + std::to_string(i) + "/flags", kv[i]["flags"].get<std::string>());
  return out;
}

}  // namespace qsel
