#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

// One background thread that runs jobs in order: where blocking Redis calls go so the GUI thread
// never waits on them. Jobs hand results back with QMetaObject::invokeMethod(receiver, ...).
class TaskThread
{
public:
    TaskThread();
    ~TaskThread(); // lets the running job end, drops the pending ones, joins
    TaskThread(const TaskThread&) = delete;
    TaskThread& operator=(const TaskThread&) = delete;

    void post(std::function<void()> job);
    void dropPending();

private:
    void run();

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_jobs;
    bool m_quit = false;
    std::thread m_thread;
};
