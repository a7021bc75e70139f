<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>AlgorithmsTableModel</name>
    <message numerus="yes">
        <source>%L1 bytes in %n key(s) in all</source>
        <translation>
            <numerusform>%L1 bytes in %n key in all</numerusform>
            <numerusform>%L1 bytes in %n keys in all</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AlgorithmsWindow</name>
    <message numerus="yes">
        <source>Done: %n algorithm(s) compared in %1 s on Redis %2.</source>
        <translation>
            <numerusform>Done: %n algorithm compared in %1 s on Redis %2.</numerusform>
            <numerusform>Done: %n algorithms compared in %1 s on Redis %2.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BurstPanel</name>
    <message numerus="yes">
        <source>%n simulated app server(s), each with its own clock and connection.</source>
        <translation>
            <numerusform>%n simulated app server, with its own clock and connection.</numerusform>
            <numerusform>%n simulated app servers, each with its own clock and connection.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BurstSummary</name>
    <message numerus="yes">
        <source>The run could not delete %n key(s) it made on %1 (%2): %3. %4. Delete them with: redis-cli DEL %5</source>
        <translation>
            <numerusform>The run could not delete %n key it made on %1 (%2): %3. %4. Delete it with: redis-cli DEL %5</numerusform>
            <numerusform>The run could not delete %n keys it made on %1 (%2): %3. %4. Delete them with: redis-cli DEL %5</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DebuggerView</name>
    <message numerus="yes">
        <source>Stopped at line %1. ZSET: %Ln member(s). %2</source>
        <translation>
            <numerusform>Stopped at line %1. ZSET: %Ln member. %2</numerusform>
            <numerusform>Stopped at line %1. ZSET: %Ln members. %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ExportActions</name>
    <message numerus="yes">
        <source>Saved %Ln member(s) to %1</source>
        <translation>
            <numerusform>Saved %Ln member to %1</numerusform>
            <numerusform>Saved %Ln members to %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LessonPanel</name>
    <message numerus="yes">
        <source>%1: %L2 sent, %L3 stored, %Ln member(s) in the ZSET</source>
        <translation>
            <numerusform>%1: %L2 sent, %L3 stored, %Ln member in the ZSET</numerusform>
            <numerusform>%1: %L2 sent, %L3 stored, %Ln members in the ZSET</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LessonStage</name>
    <message numerus="yes">
        <source>… and %Ln more member(s)</source>
        <translation>
            <numerusform>… and %Ln more member</numerusform>
            <numerusform>… and %Ln more members</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>member(s) in the ZSET</source>
        <translation>
            <numerusform>member in the ZSET</numerusform>
            <numerusform>members in the ZSET</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>request(s) sent</source>
        <translation>
            <numerusform>request sent</numerusform>
            <numerusform>requests sent</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>connection(s)</source>
        <translation>
            <numerusform>connection</numerusform>
            <numerusform>connections</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>request(s) wrote it</source>
        <translation>
            <numerusform>request wrote it</numerusform>
            <numerusform>requests wrote it</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>Firing %Ln request(s)…</source>
        <translation>
            <numerusform>Firing %Ln request…</numerusform>
            <numerusform>Firing %Ln requests…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>What if, from request %L1 on: firing %Ln request(s) with the same timestamps…</source>
        <translation>
            <numerusform>What if, from request %L1 on: firing %Ln request with the same timestamps…</numerusform>
            <numerusform>What if, from request %L1 on: firing %Ln requests with the same timestamps…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>NumbersPanel</name>
    <message numerus="yes">
        <source> %n request(s) failed.</source>
        <translation>
            <numerusform> %n request failed.</numerusform>
            <numerusform> %n requests failed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The script&apos;s replies do not say whether ZADD added a member (it answers only a count); the ZSET held %Ln member(s) when the burst ended.</source>
        <translation>
            <numerusform>The script&apos;s replies do not say whether ZADD added a member (it answers only a count); the ZSET held %Ln member when the burst ended.</numerusform>
            <numerusform>The script&apos;s replies do not say whether ZADD added a member (it answers only a count); the ZSET held %Ln members when the burst ended.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReplayActions</name>
    <message numerus="yes">
        <source>Saved the run, %Ln request(s), as %1</source>
        <translation>
            <numerusform>Saved the run, %Ln request, as %1</numerusform>
            <numerusform>Saved the run, %Ln requests, as %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReplayMembersModel</name>
    <message numerus="yes">
        <source>Written by request %L1; %n request(s) wrote this member so far</source>
        <translation>
            <numerusform>Written by request %L1; %n request wrote this member so far</numerusform>
            <numerusform>Written by request %L1; %n requests wrote this member so far</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunCursor</name>
    <message numerus="yes">
        <source>%Ln request(s)/s</source>
        <translation>
            <numerusform>%Ln request/s</numerusform>
            <numerusform>%Ln requests/s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunStatus</name>
    <message numerus="yes">
        <source>%L1 sent; stored unknown (the replies do not say), %Ln member(s) in the ZSET</source>
        <translation>
            <numerusform>%L1 sent; stored unknown (the replies do not say), %Ln member in the ZSET</numerusform>
            <numerusform>%L1 sent; stored unknown (the replies do not say), %Ln members in the ZSET</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunView</name>
    <message numerus="yes">
        <source> of %n user(s)</source>
        <translation>
            <numerusform> of %n user</numerusform>
            <numerusform> of %n users</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The run spreads its requests over %n user(s), each its own limiter key (request i is user i mod %n). The charts and the ZSET show one user; the figures above are the whole run&apos;s.</source>
        <translation>
            <numerusform>The run spreads its requests over %n user, each its own limiter key (request i is user i mod %n). The charts and the ZSET show one user; the figures above are the whole run&apos;s.</numerusform>
            <numerusform>The run spreads its requests over %n users, each its own limiter key (request i is user i mod %n). The charts and the ZSET show one user; the figures above are the whole run&apos;s.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %Ln user(s), %2</source>
        <translation>
            <numerusform>%1: %Ln user, %2</numerusform>
            <numerusform>%1: %Ln users, %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ServerSession</name>
    <message numerus="yes">
        <source>%1 · %2 · cluster of %n masters: %3</source>
        <translation>
            <numerusform>%1 · %2 · cluster of %n master: %3</numerusform>
            <numerusform>%1 · %2 · cluster of %n masters: %3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SimulatedServersWindow</name>
    <message numerus="yes">
        <source>Firing %Ln request(s) from %1 servers…</source>
        <translation>
            <numerusform>Firing %Ln request from %1 servers…</numerusform>
            <numerusform>Firing %Ln requests from %1 servers…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SweepWindow</name>
    <message numerus="yes">
        <source>Done: %n rate(s) measured in %1 s on Redis %2.</source>
        <translation>
            <numerusform>Done: %n rate measured in %1 s on Redis %2.</numerusform>
            <numerusform>Done: %n rates measured in %1 s on Redis %2.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message numerus="yes">
        <source>requests per %n ms</source>
        <translation>
            <numerusform>requests per %n ms</numerusform>
            <numerusform>requests per %n ms</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1 ms&lt;/b&gt;: %n request(s), #%2 to #%3</source>
        <translation>
            <numerusform>&lt;b&gt;%1 ms&lt;/b&gt;: %n request, #%2 to #%3</numerusform>
            <numerusform>&lt;b&gt;%1 ms&lt;/b&gt;: %n requests, #%2 to #%3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;%n request(s) only overwrote a member (ZADD replied 0)</source>
        <translation>
            <numerusform>&lt;br&gt;%n request only overwrote a member (ZADD replied 0)</numerusform>
            <numerusform>&lt;br&gt;%n requests only overwrote a member (ZADD replied 0)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;%n request(s) failed</source>
        <translation>
            <numerusform>&lt;br&gt;%n request failed</numerusform>
            <numerusform>&lt;br&gt;%n requests failed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>tallest %n request(s)</source>
        <translation>
            <numerusform>tallest %n request</numerusform>
            <numerusform>tallest %n requests</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;%n request(s) whose reply did not say whether ZADD added (the script answers only a count)</source>
        <translation>
            <numerusform>&lt;br&gt;%n request whose reply did not say whether ZADD added (the script answers only a count)</numerusform>
            <numerusform>&lt;br&gt;%n requests whose reply did not say whether ZADD added (the script answers only a count)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TransportBar</name>
    <message numerus="yes">
        <source>The ZSET holds %Ln member(s);</source>
        <translation>
            <numerusform>The ZSET holds %Ln member;</numerusform>
            <numerusform>The ZSET holds %Ln members;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln request(s) are in the window.</source>
        <translation>
            <numerusform>%Ln request is in the window.</numerusform>
            <numerusform>%Ln requests are in the window.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>So far: %Ln overwritten, %1 admitted beyond the limit.</source>
        <translation>
            <numerusform>So far: %Ln overwritten, %1 admitted beyond the limit.</numerusform>
            <numerusform>So far: %Ln overwritten, %1 admitted beyond the limit.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WatchKeyModel</name>
    <message numerus="yes">
        <source>%n more request(s)</source>
        <translation>
            <numerusform>%n more request</numerusform>
            <numerusform>%n more requests</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WatchPanel</name>
    <message numerus="yes">
        <source>Watch %1 with MONITOR for up to %n s?</source>
        <translation>
            <numerusform>Watch %1 with MONITOR for up to %n s?</numerusform>
            <numerusform>Watch %1 with MONITOR for up to %n s?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln request(s).</source>
        <translation>
            <numerusform>%Ln request.</numerusform>
            <numerusform>%Ln requests.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Watching %1 for %2 s of %3: %Ln key(s), </source>
        <translation>
            <numerusform>Watching %1 for %2 s of %3: %Ln key, </numerusform>
            <numerusform>Watching %1 for %2 s of %3: %Ln keys, </numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WebPage</name>
    <message numerus="yes">
        <source>A web page plays one run, or two side by side; %n were given.</source>
        <translation>
            <numerusform>A web page plays one run, or two side by side; %n was given.</numerusform>
            <numerusform>A web page plays one run, or two side by side; %n were given.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ZsetModel</name>
    <message numerus="yes">
        <source>%n requests wrote this member: all but one were overwritten</source>
        <translation>
            <numerusform>%n request wrote this member</numerusform>
            <numerusform>%n requests wrote this member: all but one were overwritten</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ZsetPanel</name>
    <message numerus="yes">
        <source>%Ln member(s)</source>
        <translation>
            <numerusform>%Ln member</numerusform>
            <numerusform>%Ln members</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The burst&apos;s key holds %Ln member(s) now.</source>
        <translation>
            <numerusform>The burst&apos;s key holds %Ln member now.</numerusform>
            <numerusform>The burst&apos;s key holds %Ln members now.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln member(s) after request %1</source>
        <translation>
            <numerusform>%Ln member after request %1</numerusform>
            <numerusform>%Ln members after request %1</numerusform>
        </translation>
    </message>
</context>
</TS>
