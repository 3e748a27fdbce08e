#include "server/storage/storage_worker.h"

#include <algorithm>

namespace amazons::server {

StorageWorker::StorageWorker(Storage& storage, Done done)
    : storage_(storage), done_(std::move(done)), thread_([this] { run(); }) {}

StorageWorker::~StorageWorker() { stop(); }

std::uint64_t StorageWorker::submit(WriteBatch writes, std::vector<ArchiveQuery> queries) {
  std::lock_guard lock(mutex_);
  const std::uint64_t seq = next_seq_++;
  queue_.push_back({seq, std::move(writes), std::move(queries)});
  wake_.notify_one();
  return seq;
}

void StorageWorker::read(std::function<void(Storage&)> fn) {
  std::lock_guard lock(mutex_);
  queue_.push_back({next_seq_++, {}, {}, std::move(fn)});
  wake_.notify_one();
}

void StorageWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    wake_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
}

std::uint64_t StorageWorker::transactions() const {
  std::lock_guard lock(mutex_);
  return transactions_;
}

void StorageWorker::apply(std::vector<WriteBatch>& batches, std::vector<std::uint64_t>& seqs,
                          StorageCompletion& c) {
  // Each round either commits or leaves out at least one batch, so this ends.
  while (!batches.empty()) {
    try {
      storage_.apply(batches);
      return;
    } catch (const FencedWrite& e) {
      FencedGame lost{e.game(), e.holder(), {}};
      std::size_t kept = 0;
      for (std::size_t i = 0; i < batches.size(); ++i) {
        const auto& fences = batches[i].fences;
        const bool stale = std::any_of(fences.begin(), fences.end(), [&](const Fence& f) {
          return f.game == e.game() && f.token == e.token();
        });
        if (stale) {
          lost.jobs.push_back(seqs[i]);
        } else {
          if (kept != i) {
            batches[kept] = std::move(batches[i]);
            seqs[kept] = seqs[i];
          }
          ++kept;
        }
      }
      if (lost.jobs.empty()) {  // the refusal names no fence of ours: nothing to leave out
        failed_ = true;
        c.error = e.what();
        return;
      }
      batches.resize(kept);
      seqs.resize(kept);
      c.fenced.push_back(std::move(lost));
    } catch (const std::exception& e) {
      failed_ = true;
      c.error = e.what();
      return;
    }
  }
}

void StorageWorker::run() {
  for (;;) {
    std::deque<Job> jobs;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything is done
      jobs.swap(queue_);
    }
    StorageCompletion c;
    c.through = jobs.back().seq;
    c.batch_jobs = jobs.size();
    if (failed_) {
      c.error = "storage failed earlier";
    } else {
      std::vector<WriteBatch> batches;
      std::vector<std::uint64_t> batch_seqs;  // the job of each batch
      for (auto& j : jobs)
        if (!j.writes.empty()) {
          batches.push_back(std::move(j.writes));
          batch_seqs.push_back(j.seq);
        }
      apply(batches, batch_seqs, c);
      if (!failed_) {
        for (const auto& j : jobs)
          for (const auto& q : j.queries) c.replies.emplace_back(j.seq, answer_query(storage_, q));
        for (const auto& j : jobs) {
          if (!j.read) continue;
          try {
            j.read(storage_);
          } catch (const std::exception&) {
          }
        }
      }
      std::lock_guard lock(mutex_);
      if (!batches.empty()) ++transactions_;
    }
    done_(std::move(c));
  }
}

}  // namespace amazons::server
