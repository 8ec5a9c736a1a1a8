#pragma once
/// The tests of `planlint diff`: a git repository with two commits, made in a scratch folder by
/// the git command, plans to put in it, and the change of the tests that check every format.
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"

namespace planlint::test {

/// A training plan of the template's shape (7B, 1T tokens on H100s), reviewed 2026-11-01, its
/// assumptions sourced unless `unsourced_mfu`; `cluster_extra` is appended to [cluster].
inline std::string diff_training_plan(const std::string& name, const std::string& mfu, int gpus,
                                      const std::string& cluster_extra = "", bool unsourced_mfu = false) {
  return fmt::format(R"([plan]
name = "{0}"
kind = "training"
owner = "capacity"
updated = 2026-11-01

[model]
params = "7B"
layers = 32
hidden = 4096
heads = 32

[training]
tokens = "1T"
precision = "bf16"
optimizer = "adamw"
seq_len = "4096 tokens"
micro_batch = 1
global_batch = "4M tokens"
zero = 1
mfu = "{1}"
goodput = "90%"
schedule_margin = 1.2

[cluster]
gpu = "h100-sxm"
count = {2}
inter_node_bandwidth = "400 Gbps"
price = "$3/GPU/h"
{3}
[[targets]]
name = "training time"
metric = "train.days"
max = "30 d"

[[assumptions]]
id = "mfu"
key = "training.mfu"
value = "{1}"
low = "20%"
high = "50%"
{4}updated = 2026-11-01

[[assumptions]]
id = "goodput"
key = "training.goodput"
value = "90%"
low = "80%"
high = "95%"
source = "the fleet's incident log"
updated = 2026-11-01

[[assumptions]]
id = "price"
key = "cluster.price"
value = "$3/GPU/h"
low = "$2/GPU/h"
high = "$4/GPU/h"
source = "the 2026 contract"
updated = 2026-11-01
)",
                     name, mfu, gpus, cluster_extra, unsourced_mfu ? "" : "source = \"a trial run\"\n");
}

/// A Markdown capacity doc holding one inference plan of `gpus` GPUs.
inline std::string diff_capacity_doc(const std::string& name, int gpus) {
  return fmt::format(R"(# Serving capacity

The chat service, sized for the launch.

```toml
[plan]
name = "{0}"
kind = "inference"
owner = "serving"
updated = 2026-11-01

[model]
params = "8B"
layers = 32
hidden = 4096
heads = 32
kv_heads = 8

[inference]
weights = "bf16"
kv_precision = "bf16"
context = "4096 tokens"
prompt_tokens = 2048
output_tokens = 512
concurrency = "24 seq"
tp = 1
replicas = {1}
mfu = "40%"

[cluster]
gpu = "h100-sxm"
count = {1}
price = "$3/GPU/h"
```
)",
                     name, gpus);
}

/// A git repository in a scratch folder: write files, commit them, run git in it.
struct GitRepository {
  Scratch dir;
  GitRepository() {
    fs::remove_all(dir.path / ".git");
    git("init -q -b main");
  }
  std::string git(const std::string& args) const {
    std::string output;
    const int status = run_command("git -C " + quote(dir.path.string()) +
                                       " -c user.name=planlint -c user.email=planlint@example.com "
                                       "-c commit.gpgsign=false " + args,
                                   output);
    INFO("git " << args << "\n" << output);
    REQUIRE(status == 0);
    return output;
  }
  void write(const std::string& name, const std::string& text) const { dir.write(name, text); }
  void remove(const std::string& name) const { fs::remove(dir.path / name); }
  void commit(const std::string& message) const {
    git("add -A");
    git("commit -q -m " + quote(message));
  }
};

/// The config of ChangedRepository: two guardrails.
inline constexpr const char* changed_config = R"([guardrails]
cost_increase = "20%"
new_errors = true
)";

/// A repository of two commits, the working tree at the second: a plan edited, one removed,
/// one renamed, one unchanged, a Markdown doc's plan scaled up, and one added.
struct ChangedRepository {
  GitRepository repo;
  ChangedRepository() {
    repo.write(".planlint.toml", changed_config);
    repo.write("plans/edited.toml", diff_training_plan("edited-plan", "40%", 64, "", true));
    repo.write("plans/removed.toml", diff_training_plan("removed-plan", "40%", 32));
    repo.write("plans/old-name.toml", diff_training_plan("renamed-plan", "40%", 128));
    repo.write("plans/unchanged.toml", diff_training_plan("unchanged-plan", "45%", 256));
    repo.write("docs/capacity.md", diff_capacity_doc("chat-serving", 8));
    repo.commit("base");
    // The edit: a lower MFU (the cost rises 60%, the days past the target), a misspelt key
    // (an error introduced), the MFU's assumption sourced (its warning resolved).
    repo.write("plans/edited.toml", diff_training_plan("edited-plan", "25%", 64, "hmb = \"80 GB\"\n"));
    repo.remove("plans/removed.toml");
    repo.remove("plans/old-name.toml");
    repo.write("plans/new-name.toml", diff_training_plan("renamed-plan", "40%", 128));
    repo.write("plans/added.toml", diff_training_plan("added-plan", "40%", 512));
    repo.write("docs/capacity.md", diff_capacity_doc("chat-serving", 16));
    repo.commit("head");
  }
  CliRun diff(std::vector<std::string> args) const {
    InDirectory here(repo.dir.path);
    args.insert(args.begin(), {"diff", "--today", "2026-11-30"});
    return run_cli(std::move(args));
  }
};

inline const nlohmann::json* plan_named(const nlohmann::json& doc, const std::string& name) {
  for (const nlohmann::json& plan : doc["plans"])
    if (plan["name"] == name) return &plan;
  return nullptr;
}

inline const nlohmann::json* figure_named(const nlohmann::json& plan, const std::string& name) {
  for (const nlohmann::json& figure : plan["figures"])
    if (figure["name"] == name) return &figure;
  return nullptr;
}

}  // namespace planlint::test
