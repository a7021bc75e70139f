#include "taskthread.h"

TaskThread::TaskThread()
    : m_thread([this] { run(); })
{ }

TaskThread::~TaskThread()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_quit = true;
        m_jobs.clear();
    }
    m_wake.notify_all();
    m_thread.join();
}

void TaskThread::post(std::function<void()> job)
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_jobs.push_back(std::move(job));
    }
    m_wake.notify_one();
}

void TaskThread::dropPending()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_jobs.clear();
}

void TaskThread::run()
{
    while (true) {
        std::function<void()> job;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [this] { return m_quit || !m_jobs.empty(); });
            if (m_quit)
                return;
            job = std::move(m_jobs.front());
            m_jobs.pop_front();
        }
        job();
    }
}
