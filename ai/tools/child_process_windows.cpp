// ChildProcess on Windows: CreateProcess of cmd.exe /s /c, inside a job object that kills the
// child and whatever it started when terminated or when its last handle closes (so also when
// this process dies, as PR_SET_PDEATHSIG would on Linux), and two anonymous pipes for the
// child's stdin and stdout.
#include <windows.h>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <utility>

#include "ai/tools/child_process.h"

namespace amazons::ai {

namespace {

std::string last_error_text() {
  const DWORD code = GetLastError();
  char* text = nullptr;
  FormatMessageA(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
      nullptr, code, 0, reinterpret_cast<char*>(&text), 0, nullptr);
  std::string s = text ? text : "error " + std::to_string(code);
  LocalFree(text);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// A HANDLE closed when it goes out of scope.
struct Handle {
  HANDLE h = nullptr;
  Handle() = default;
  explicit Handle(HANDLE handle) : h(handle == INVALID_HANDLE_VALUE ? nullptr : handle) {}
  Handle(Handle&& o) noexcept : h(std::exchange(o.h, nullptr)) {}
  Handle& operator=(Handle&& o) noexcept {
    std::swap(h, o.h);
    return *this;
  }
  ~Handle() {
    if (h) CloseHandle(h);
  }
};

std::string describe_exit_code(DWORD code) {
  // Codes from 0xC0000000 are NTSTATUS errors: the process died of an exception (0xC0000005:
  // an access violation), as a POSIX process would die of a signal.
  if (code >= 0xC0000000u) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08lX", static_cast<unsigned long>(code));
    return std::string("crashed (exception ") + hex + ")";
  }
  std::string s = "exited with code " + std::to_string(code);
  if (code == 9009) s += " (command not found?)";  // cmd.exe's code for an unknown command
  return s;
}

}  // namespace

struct ChildProcess::Os {
  Handle process;
  Handle job;
  Handle to_child;    // the child's stdin, our end
  Handle from_child;  // the child's stdout, our end
};

ChildProcess::ChildProcess(std::unique_ptr<Os> os) : os_(std::move(os)) {}

Expected<std::unique_ptr<ChildProcess>, std::string> ChildProcess::start(const std::string& command,
                                                                         bool quiet_stderr) {
  auto os = std::make_unique<Os>();
  SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  HANDLE child_in = nullptr, ours_in = nullptr, child_out = nullptr, ours_out = nullptr;
  if (!CreatePipe(&child_in, &ours_in, &inherit, 0))
    return Unexpected("cannot create a pipe: " + last_error_text());
  Handle child_stdin(child_in);
  os->to_child = Handle(ours_in);
  if (!CreatePipe(&ours_out, &child_out, &inherit, 0))
    return Unexpected("cannot create a pipe: " + last_error_text());
  Handle child_stdout(child_out);
  os->from_child = Handle(ours_out);
  // Only the child's ends are inherited.
  SetHandleInformation(os->to_child.h, HANDLE_FLAG_INHERIT, 0);
  SetHandleInformation(os->from_child.h, HANDLE_FLAG_INHERIT, 0);
  Handle null_device;
  HANDLE child_stderr = GetStdHandle(STD_ERROR_HANDLE);
  if (quiet_stderr) {
    null_device = Handle(CreateFileA("NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                                     &inherit, OPEN_EXISTING, 0, nullptr));
    child_stderr = null_device.h;
  }

  os->job = Handle(CreateJobObjectA(nullptr, nullptr));
  if (!os->job.h) return Unexpected("cannot create a job object: " + last_error_text());
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
  SetInformationJobObject(os->job.h, JobObjectExtendedLimitInformation, &limits, sizeof limits);

  STARTUPINFOA startup{};
  startup.cb = sizeof startup;
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdInput = child_stdin.h;
  startup.hStdOutput = child_stdout.h;
  startup.hStdError = child_stderr;
  // /s: cmd.exe takes the text between the first and the last quote as the command, verbatim.
  std::string line = "cmd.exe /s /c \"" + command + "\"";
  PROCESS_INFORMATION info{};
  // Suspended until it is in the job, so that nothing it starts escapes the job.
  if (!CreateProcessA(nullptr, line.data(), nullptr, nullptr, TRUE,
                      CREATE_SUSPENDED | CREATE_NO_WINDOW, nullptr, nullptr, &startup, &info))
    return Unexpected("cannot start '" + command + "': " + last_error_text());
  os->process = Handle(info.hProcess);
  Handle thread(info.hThread);
  AssignProcessToJobObject(os->job.h, info.hProcess);
  ResumeThread(info.hThread);
  return std::unique_ptr<ChildProcess>(new ChildProcess(std::move(os)));
}

ChildProcess::~ChildProcess() {
  kill();
  exit_status(std::chrono::milliseconds(1000));
}

bool ChildProcess::write_all(std::string_view data) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    DWORD n = 0;
    const DWORD size = static_cast<DWORD>(std::min<std::size_t>(data.size() - sent, 1 << 20));
    if (!WriteFile(os_->to_child.h, data.data() + sent, size, &n, nullptr) || n == 0) return false;
    sent += n;
  }
  return true;
}

ChildProcess::Chunk ChildProcess::read_some(std::string& into, std::chrono::milliseconds wait) {
  // An anonymous pipe has no waiting with a deadline (no overlapped reads): ask how much is
  // there, and look again a millisecond later, until the wait is over. An engine's reply is
  // late by a millisecond at most.
  const auto until = Clock::now() + wait;
  for (;;) {
    DWORD available = 0;
    if (!PeekNamedPipe(os_->from_child.h, nullptr, 0, nullptr, &available, nullptr))
      return Chunk::Closed;  // ERROR_BROKEN_PIPE: the child closed its end
    if (available > 0) {
      char chunk[4096];
      DWORD n = 0;
      if (!ReadFile(os_->from_child.h, chunk, std::min<DWORD>(available, sizeof chunk), &n,
                    nullptr) ||
          n == 0)
        return Chunk::Closed;
      into.append(chunk, n);
      return Chunk::Data;
    }
    if (Clock::now() >= until) return Chunk::Nothing;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

std::optional<std::string> ChildProcess::exit_status(std::chrono::milliseconds wait) {
  if (status_) return status_;
  if (WaitForSingleObject(os_->process.h, static_cast<DWORD>(wait.count())) != WAIT_OBJECT_0)
    return std::nullopt;
  DWORD code = 0;
  status_ = GetExitCodeProcess(os_->process.h, &code) ? describe_exit_code(code)
                                                      : "ended (its status is unknown)";
  return status_;
}

void ChildProcess::kill() {
  if (status_) return;
  // 137 as a POSIX shell reports a SIGKILL: 128 + 9.
  TerminateJobObject(os_->job.h, 137);
}

}  // namespace amazons::ai
