// QS034: a source that cites a file in a repository without the 40-hex commit it
// was read at (or without the repository or the path).
#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "checks.h"
#include "qsel/core/citation.h"
#include "qsel/core/text.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS034", "unpinned-code-citation", Severity::Error, true,
    "A GitHub link names a branch or tag instead of a 40-hex commit, or a code citation lacks its repository or path.",
    {R"(Any GitHub file link anywhere in a record — a source's `url`, a `quote`, `notes`, any text: `https://github.com/OWNER/NAME/blob|tree|raw/REF/PATH` or `https://raw.githubusercontent.com/OWNER/NAME/REF/PATH` — whose REF is not a 40-hex commit (a branch such as `main`, `master`, `develop` or `HEAD`, a tag, a short hash); documentation links too. And a source that cites a file in a repository (a non-documentation GitHub URL, or a source with `repo` or `path`) with no 40-hex commit (in the URL or in `commit`), no repository or no path, or whose `commit` differs from the commit in its URL. In engine, kernel and matrix records (the engine facts) a pinned citation also needs `date`: the commit's date, or — with `dated: read` — the day the file was read where the commit's date could not be found. `--fix` pins a source's branch `url` to the commit the record's own citation of the same repository names for the same `date`, when exactly one does.)",
     R"(Code and docs move. "vLLM's `supports_fp8()` checks capability 8.9" is true at one commit and may be false at the next; a link to `blob/main` points at whatever main is when a reader clicks, so nobody can re-check what the record read — the corpus once quoted a llama.cpp README backend list that is no longer at its URL, and carried a quote attributed to a commit whose file did not hold it. A README on a branch is as mobile as code: the quote and the page drift apart. Engine code at a commit is the highest source in docs/sources.md#order only when the commit is named.)",
     R"(# kernels/marlin.yaml
sources:
- title: vLLM marlin_utils.py
  url: https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/layers/quantization/utils/marlin_utils.py)",
     R"(kernels/marlin.yaml:4:8: error: GitHub link vllm-project/vllm vllm/model_executor/layers/quantization/utils/marlin_utils.py names the branch "main", not the 40-hex commit it was read at [QS034 unpinned-code-citation])",
     R"(Find the commit whose file holds the quoted text (`git log -S 'quote' -- PATH`, or the file's history on GitHub), put it in the URL (`/blob/<commit>/PATH`) or in `commit:`, and add `date:` — the commit's date, which `qsel lint --stale-after` reads. In a quote, cut a moving link (`…`) rather than change the source's words. `qsel lint --fix` pins a source's url where the record already cites the same repository at a commit of the same date.)"}};

// A GitHub file link found in a string: where it starts, how long it is, and what it names.
struct Link {
  std::size_t at = 0, size = 0;
  std::string repo, ref, path;
};

bool url_char(char ch) {
  return ch > ' ' && ch != '\'' && ch != '"' && ch != '<' && ch != '>' && ch != ')' && ch != ']' && ch != '`' && ch != '|';
}

// Every https://github.com/OWNER/NAME/(blob|tree|raw)/REF/PATH and
// https://raw.githubusercontent.com/OWNER/NAME/REF/PATH in `text`.
std::vector<Link> github_links(const std::string& text) {
  std::vector<Link> out;
  for (const std::string_view host : {std::string_view("https://github.com/"), std::string_view("https://raw.githubusercontent.com/")}) {
    bool raw_host = host.find("raw.") != std::string_view::npos;
    for (std::size_t at = text.find(host); at != std::string::npos; at = text.find(host, at + 1)) {
      std::size_t end = at;
      while (end < text.size() && url_char(text[end])) ++end;
      std::string url = text.substr(at, end - at);
      while (!url.empty() && (url.back() == '.' || url.back() == ',' || url.back() == ';' || url.back() == ':')) url.pop_back();
      std::vector<std::string> part;
      for (std::size_t p = host.size(); p <= url.size() && part.size() < 5;) {
        std::size_t slash = url.find('/', p);
        if (part.size() == (raw_host ? 3u : 4u)) {  // the rest is the path
          part.push_back(url.substr(p));
          break;
        }
        if (slash == std::string::npos) break;
        part.push_back(url.substr(p, slash - p));
        p = slash + 1;
      }
      if (raw_host && part.size() == 4) part.insert(part.begin() + 2, "raw");
      if (part.size() != 5 || part[0].empty() || part[1].empty() || part[3].empty() || part[4].empty()) continue;
      if (part[2] != "blob" && part[2] != "tree" && part[2] != "raw") continue;
      std::string path = part[4].substr(0, part[4].find_first_of("#?"));
      out.push_back({at, url.size(), part[0] + "/" + part[1], part[3], path});
    }
  }
  return out;
}

std::string ref_kind(const std::string& ref) {
  static const char* kBranches[] = {"main", "master", "develop", "dev", "HEAD", "trunk", "stable", "nightly"};
  for (const char* b : kBranches)
    if (ref == b) return fmt::format("the branch {}", quote_value(ref));
  bool hex = !ref.empty() && ref.size() < 40 && std::all_of(ref.begin(), ref.end(), [](char ch) {
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
  });
  return hex ? fmt::format("the short hash {}", quote_value(ref)) : quote_value(ref);
}

void check_source(CheckContext& c, const Record& r, const std::string& pointer, const json& source) {
  Citation cite = read_citation(source);
  if (!cite.code) return;
  std::string at = pointer + (source.contains("url") ? "/url" : source.contains("path") ? "/path" : "/repo");
  std::string what = fmt::format("code citation {} {}", cite.repo.empty() ? "(no repo)" : cite.repo, cite.path.empty() ? "(no path)" : cite.path);
  if (cite.repo.empty() || cite.path.empty()) {
    c.report(r, at, fmt::format("{} needs both repo and path (owner/name and the file inside it)", what));
    return;
  }
  std::string given = source.value("commit", std::string());
  if (!given.empty() && is_commit(cite.ref) && given != cite.ref) {
    c.report(r, pointer + "/commit", fmt::format("{}: commit {} differs from the URL's {}", what, given, cite.ref));
    return;
  }
  if (is_commit(cite.commit)) {
    if (holds_engine_facts(r.kind) && date_days(cite.date) < 0)
      c.report(r, at,
               fmt::format("{} at {} has no date: engine facts carry the date they were read at (the commit's date, or "
                           "`dated: read` and the day the file was read)",
                           what, cite.commit.substr(0, 7)));
    return;
  }
  if (!cite.ref.empty() && source.contains("url")) return;  // a GitHub link at a branch: the link scan reports it
  c.report(r, at, fmt::format("{} names no commit, not the 40-hex commit it was read at", what));
}

// The commit the record's own pinned citations of `repo` name for `date`, when exactly one does.
std::string commit_for(const Record& r, const std::string& repo, const std::string& date) {
  std::string found;
  bool ambiguous = false;
  for_each_source(r.data, [&](const std::string&, const json& s) {
    Citation cite = read_citation(s);
    std::string url = s.value("url", std::string());
    std::vector<Link> links = github_links(url);
    std::string cited_repo = !cite.repo.empty() ? cite.repo : links.empty() ? "" : links.front().repo;
    std::string commit = is_commit(cite.commit) ? cite.commit : !links.empty() && is_commit(links.front().ref) ? links.front().ref : "";
    if (cited_repo != repo || commit.empty() || cite.date != date) return;
    if (!found.empty() && found != commit) ambiguous = true;
    found = commit;
  });
  return ambiguous ? "" : found;
}

// Every GitHub link in every string of the record, wherever it sits.
void scan_links(CheckContext& c, const Record& r, const json& node, const std::string& pointer, const json* source) {
  if (node.is_object()) {
    bool is_source = node.contains("title") && (node.contains("url") || node.contains("quote"));
    for (const auto& [key, v] : node.items()) scan_links(c, r, v, pointer + "/" + key, is_source ? &node : source);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) scan_links(c, r, node[i], pointer + "/" + std::to_string(i), source);
  } else if (node.is_string()) {
    const std::string& text = node.get_ref<const std::string&>();
    if (text.find("github") == std::string::npos) return;
    for (const Link& link : github_links(text)) {
      if (is_commit(link.ref)) continue;
      Finding& f = c.report(r, pointer,
                            fmt::format("GitHub link {} {} names {}, not the 40-hex commit it was read at", link.repo, link.path,
                                        ref_kind(link.ref)));
      // --fix: a source's url, pinned to the source's own `commit`, else to the commit the
      // record's citations of the same repository name for the source's date.
      if (!source || !pointer.ends_with("/url") || link.at != 0 || link.size != text.size()) continue;
      std::string commit = source->value("commit", std::string());
      if (!is_commit(commit)) {
        std::string date = source->value("date", std::string());
        commit = date_days(date) < 0 ? "" : commit_for(r, link.repo, date);
      }
      if (commit.empty()) continue;
      std::string pinned = text;
      std::size_t ref_at = text.find("/" + link.ref + "/", text.find(link.repo) + link.repo.size());
      if (ref_at == std::string::npos) continue;
      pinned.replace(ref_at + 1, link.ref.size(), commit);
      f.fix = Fix{f.mark, text, pinned};
    }
  }
}

void each(CheckContext& c, const Record& r) {
  for_each_source(r.data, [&](const std::string& pointer, const json& source) { check_source(c, r, pointer, source); });
  scan_links(c, r, r.data, "", nullptr);
}

}  // namespace

Check unpinned_code_citation() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
