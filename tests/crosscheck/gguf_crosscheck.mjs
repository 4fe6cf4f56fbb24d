// Reads each GGUF file with @huggingface/gguf (an independent implementation of
// the format) and compares it with `qsel inspect --tensors --format json`:
// tensor names, types, shapes, the data offset, and scalar metadata. Prints one
// line per file; exits 1 on any difference.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { gguf, GGMLQuantizationType } from "@huggingface/gguf";

const [qsel, dir] = process.argv.slice(2);
let failed = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith(".gguf")).sort()) {
  const path = join(dir, file);
  const ours = JSON.parse(execFileSync(qsel, ["inspect", path, "--tensors", "--format", "json"], { encoding: "utf8" }));
  const theirs = await gguf(path, { allowLocalFile: true });
  const diffs = [];
  const mine = ours.tensor_list;
  if (mine.length !== theirs.tensorInfos.length) diffs.push(`tensor count ${mine.length} vs ${theirs.tensorInfos.length}`);
  theirs.tensorInfos.forEach((t, i) => {
    const m = mine[i] ?? {};
    const type = GGMLQuantizationType[t.dtype];
    const shape = t.shape.map(Number);
    if (m.name !== t.name) diffs.push(`tensor ${i}: name ${m.name} vs ${t.name}`);
    if (m.dtype !== type) diffs.push(`${t.name}: type ${m.dtype} vs ${type}`);
    if (JSON.stringify(m.shape) !== JSON.stringify(shape)) diffs.push(`${t.name}: shape ${JSON.stringify(m.shape)} vs ${JSON.stringify(shape)}`);
  });
  if (ours.gguf.data_offset !== Number(theirs.tensorDataOffset)) diffs.push(`data offset ${ours.gguf.data_offset} vs ${theirs.tensorDataOffset}`);
  const keys = Object.keys(theirs.metadata).filter((k) => k !== "version" && k !== "tensor_count" && k !== "kv_count");
  if (ours.gguf.metadata_keys !== keys.length) diffs.push(`metadata keys ${ours.gguf.metadata_keys} vs ${keys.length}`);
  if (ours.gguf.version !== Number(theirs.metadata.version)) diffs.push(`version ${ours.gguf.version} vs ${theirs.metadata.version}`);
  const ft = theirs.metadata["general.file_type"];
  if (ft !== undefined && !ours.settings.includes(`general.file_type ${ft}`)) diffs.push(`general.file_type ${ft} not in ${ours.settings}`);
  console.log(`${file}: ${mine.length} tensors, ${keys.length} metadata keys, data at byte ${ours.gguf.data_offset} — ` +
              (diffs.length ? `DIFFERENT:\n  ${diffs.join("\n  ")}` : "qsel and @huggingface/gguf agree"));
  failed += diffs.length ? 1 : 0;
}
process.exit(failed ? 1 : 0);
