<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="vi_VN">
<context>
    <name>AlgorithmComparison</name>
    <message>
        <source>A comparison is running: stop it first.</source>
        <translation>Đang có một phép so sánh chạy: hãy dừng nó trước.</translation>
    </message>
    <message>
        <source>Cannot load the script of %1: %2</source>
        <translation>Không nạp được script của %1: %2</translation>
    </message>
    <message>
        <source>The server stopped answering during %1: %2</source>
        <translation>Server ngừng trả lời trong lúc chạy %1: %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Cannot send to the server: %1</source>
        <translation>Không gửi được tới server: %1</translation>
    </message>
    <message>
        <source>limit: the algorithms are compared on how they keep a limit: give a limit of 1 or more.</source>
        <translation>limit: các thuật toán được so sánh ở cách chúng giữ giới hạn: hãy đặt limit từ 1 trở lên.</translation>
    </message>
    <message>
        <source>users must be from 1 to %1 (got %2).</source>
        <translation>users phải từ 1 đến %1 (nhận được %2).</translation>
    </message>
    <message>
        <source>limiters: &quot;%1&quot; is not a limiter; choose from %2.</source>
        <translation>limiters: &quot;%1&quot; không phải là một limiter; hãy chọn trong %2.</translation>
    </message>
    <message>
        <source>limiters: name each limiter once.</source>
        <translation>limiters: mỗi limiter chỉ ghi một lần.</translation>
    </message>
</context>
<context>
    <name>AlgorithmsChart</name>
    <message>
        <source>One point per algorithm: right costs more memory per user, up makes more wrong decisions than the exact sliding log.</source>
        <translation>Mỗi thuật toán là một điểm: càng sang phải càng tốn bộ nhớ cho mỗi người dùng, càng lên cao càng quyết định sai nhiều hơn so với sliding log chính xác.</translation>
    </message>
    <message>
        <source>Accuracy against memory</source>
        <translation>Độ chính xác so với bộ nhớ</translation>
    </message>
    <message>
        <source>memory per user, bytes (log scale)</source>
        <translation>bộ nhớ cho mỗi người dùng, byte (thang log)</translation>
    </message>
    <message>
        <source>wrong decisions, % of requests</source>
        <translation>quyết định sai, % số request</translation>
    </message>
</context>
<context>
    <name>AlgorithmsTableModel</name>
    <message numerus="yes">
        <source>%L1 bytes in %n key(s) in all</source>
        <translation>
            <numerusform>tổng cộng %L1 byte trong %n key</numerusform>
        </translation>
    </message>
    <message>
        <source>over %L1 EVALSHA calls</source>
        <translation>trên %L1 lệnh gọi EVALSHA</translation>
    </message>
    <message>
        <source>algorithm</source>
        <translation>thuật toán</translation>
    </message>
    <message>
        <source>admitted</source>
        <translation>cho qua</translation>
    </message>
    <message>
        <source>over limit</source>
        <translation>vượt giới hạn</translation>
    </message>
    <message>
        <source>under limit</source>
        <translation>chặn oan</translation>
    </message>
    <message>
        <source>bytes / user</source>
        <translation>byte / người dùng</translation>
    </message>
    <message>
        <source>keys</source>
        <translation>số key</translation>
    </message>
    <message>
        <source>µs / call</source>
        <translation>µs / lệnh gọi</translation>
    </message>
    <message>
        <source>The limiter&apos;s catalog id (lua/&lt;id&gt;.lua).</source>
        <translation>Id của limiter trong danh mục (lua/&lt;id&gt;.lua).</translation>
    </message>
    <message>
        <source>Requests the algorithm admitted.</source>
        <translation>Số request mà thuật toán cho qua.</translation>
    </message>
    <message>
        <source>Admitted although the exact sliding log refuses them: more than the limit got through.</source>
        <translation>Được cho qua dù sliding log chính xác từ chối: số request lọt qua nhiều hơn giới hạn.</translation>
    </message>
    <message>
        <source>Refused although the exact sliding log admits them: a request within the limit was turned away.</source>
        <translation>Bị từ chối dù sliding log chính xác cho qua: một request còn trong giới hạn đã bị chặn oan.</translation>
    </message>
    <message>
        <source>MEMORY USAGE of one user&apos;s keys at the end of the run.</source>
        <translation>MEMORY USAGE của các key của một người dùng khi lần chạy kết thúc.</translation>
    </message>
    <message>
        <source>The keys that held data at the end, for all users.</source>
        <translation>Số key còn chứa dữ liệu lúc kết thúc, tính cho mọi người dùng.</translation>
    </message>
    <message>
        <source>Server time per EVALSHA call, from INFO commandstats before and after the run.</source>
        <translation>Thời gian server cho mỗi lệnh gọi EVALSHA, lấy từ INFO commandstats trước và sau lần chạy.</translation>
    </message>
</context>
<context>
    <name>AlgorithmsWindow</name>
    <message>
        <source>Window boundary</source>
        <translation>Ranh giới window</translation>
    </message>
    <message>
        <source>Bursts every 250 ms</source>
        <translation>Burst mỗi 250 ms</translation>
    </message>
    <message>
        <source>Steady Poisson</source>
        <translation>Poisson đều đặn</translation>
    </message>
    <message>
        <source>Compare algorithms — zsetlab</source>
        <translation>So sánh thuật toán — zsetlab</translation>
    </message>
    <message>
        <source>your own traffic</source>
        <translation>lưu lượng của bạn</translation>
    </message>
    <message>
        <source>Traffic that shows the algorithms apart: it fills in the fields below.</source>
        <translation>Lưu lượng làm lộ rõ khác biệt giữa các thuật toán: nó điền sẵn các ô bên dưới.</translation>
    </message>
    <message>
        <source>&amp;Scenario</source>
        <translation>&amp;Kịch bản</translation>
    </message>
    <message>
        <source>Requests fired at each algorithm, the same for all.</source>
        <translation>Số request bắn vào mỗi thuật toán, như nhau cho tất cả.</translation>
    </message>
    <message>
        <source>&amp;Requests</source>
        <translation>Số &amp;request</translation>
    </message>
    <message>
        <source>When the requests arrive: burst (all at once), interval:MICROS (one every MICROS µs), poisson:PER_MS (random arrivals, PER_MS per ms on average) or bursts:N@MS (N requests in one instant every MS ms).</source>
        <translation>Thời điểm các request đến: burst (tất cả cùng lúc), interval:MICROS (cứ MICROS µs một request), poisson:PER_MS (đến ngẫu nhiên, trung bình PER_MS request mỗi ms) hoặc bursts:N@MS (N request cùng một thời điểm, cứ MS ms một lần).</translation>
    </message>
    <message>
        <source>e.g. bursts:100@1</source>
        <translation>ví dụ bursts:100@1</translation>
    </message>
    <message>
        <source>&amp;Pace</source>
        <translation>&amp;Nhịp gửi</translation>
    </message>
    <message>
        <source>the pace&apos;s own times</source>
        <translation>thời điểm theo nhịp gửi</translation>
    </message>
    <message>
        <source>all in one millisecond</source>
        <translation>tất cả trong một millisecond</translation>
    </message>
    <message>
        <source>The timestamps every algorithm gets: the arrival times of the pace, or one millisecond for all requests.</source>
        <translation>Các timestamp mà mọi thuật toán nhận được: thời điểm đến theo nhịp gửi, hoặc cùng một millisecond cho mọi request.</translation>
    </message>
    <message>
        <source>&amp;Timestamps</source>
        <translation>&amp;Timestamp</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>&amp;Window</source>
        <translation>Độ dài &amp;window</translation>
    </message>
    <message>
        <source>Requests each user may make per window.</source>
        <translation>Số request mỗi người dùng được gửi trong một window.</translation>
    </message>
    <message>
        <source>&amp;Limit</source>
        <translation>&amp;Giới hạn</translation>
    </message>
    <message>
        <source>Request i belongs to user i mod users; each user has its own keys and limit.</source>
        <translation>Request i thuộc về người dùng i mod số người dùng; mỗi người dùng có key và giới hạn riêng.</translation>
    </message>
    <message>
        <source>&amp;Users</source>
        <translation>Số người &amp;dùng</translation>
    </message>
    <message>
        <source>Run comparison</source>
        <translation>Chạy so sánh</translation>
    </message>
    <message>
        <source>Algorithms</source>
        <translation>Thuật toán</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>&amp;So sánh</translation>
    </message>
    <message>
        <source>Pace: %1</source>
        <translation>Nhịp gửi: %1</translation>
    </message>
    <message>
        <source>Choose at least one algorithm.</source>
        <translation>Hãy chọn ít nhất một thuật toán.</translation>
    </message>
    <message>
        <source>Give a limit of 1 or more: the algorithms are compared on how they keep it.</source>
        <translation>Hãy đặt giới hạn từ 1 trở lên: các thuật toán được so sánh ở cách chúng giữ giới hạn đó.</translation>
    </message>
    <message>
        <source>Algorithm %1 of %2 (%3): %L4 of %L5 requests</source>
        <translation>Thuật toán %1/%2 (%3): %L4/%L5 request</translation>
    </message>
    <message>
        <source>Failed: %1 (%2 of %3 algorithms measured)</source>
        <translation>Thất bại: %1 (đo được %2/%3 thuật toán)</translation>
    </message>
    <message>
        <source>Stopped: %1 of %2 algorithms measured.</source>
        <translation>Đã dừng: đo được %1/%2 thuật toán.</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n algorithm(s) compared in %1 s on Redis %2.</source>
        <translation>
            <numerusform>Xong: đã so sánh %n thuật toán trong %1 s trên Redis %2.</numerusform>
        </translation>
    </message>
    <message>
        <source>Run a comparison first: the table is empty.</source>
        <translation>Hãy chạy so sánh trước: bảng đang trống.</translation>
    </message>
    <message>
        <source>Accuracy against memory chart</source>
        <translation>Biểu đồ độ chính xác so với bộ nhớ</translation>
    </message>
</context>
<context>
    <name>AnimationEncoder</name>
    <message>
        <source>FFmpeg has no %1 writer.</source>
        <translation>FFmpeg không có bộ ghi %1.</translation>
    </message>
    <message>
        <source>FFmpeg has no %1 encoder: install the distribution&apos;s libavcodec.</source>
        <translation>FFmpeg không có bộ mã hóa %1: hãy cài libavcodec của bản phân phối.</translation>
    </message>
    <message>
        <source>Could not start the %1 encoder: %2</source>
        <translation>Không khởi động được bộ mã hóa %1: %2</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>Không ghi được %1: %2</translation>
    </message>
    <message>
        <source>The encoder refused a frame: %1</source>
        <translation>Bộ mã hóa từ chối một khung hình: %1</translation>
    </message>
    <message>
        <source>The encoder failed: %1</source>
        <translation>Bộ mã hóa bị lỗi: %1</translation>
    </message>
    <message>
        <source>Could not write a frame: %1</source>
        <translation>Không ghi được một khung hình: %1</translation>
    </message>
    <message>
        <source>Could not finish the file: %1</source>
        <translation>Không hoàn tất được tệp: %1</translation>
    </message>
    <message>
        <source>FFmpeg&apos;s filters %1 are missing: install the distribution&apos;s libavfilter.</source>
        <translation>Thiếu bộ lọc %1 của FFmpeg: hãy cài libavfilter của bản phân phối.</translation>
    </message>
    <message>
        <source>FFmpeg made no palette for the GIF.</source>
        <translation>FFmpeg không tạo được bảng màu cho GIF.</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Đã dừng.</translation>
    </message>
    <message>
        <source>%1: name the file .gif, .mp4 or .webm.</source>
        <translation>%1: hãy đặt tên tệp đuôi .gif, .mp4 hoặc .webm.</translation>
    </message>
    <message>
        <source>Nothing to export: no request in the range.</source>
        <translation>Không có gì để xuất: không có request nào trong khoảng.</translation>
    </message>
    <message>
        <source>Could not encode %1.</source>
        <translation>Không mã hóa được %1.</translation>
    </message>
</context>
<context>
    <name>AnimationExport</name>
    <message>
        <source>The replay holds no request to animate.</source>
        <translation>Bản phát lại không có request nào để làm hoạt ảnh.</translation>
    </message>
    <message>
        <source>%1: name the file .gif, .mp4 or .webm.</source>
        <translation>%1: hãy đặt tên tệp đuôi .gif, .mp4 hoặc .webm.</translation>
    </message>
    <message>
        <source>The replay has requests 1 to %1: requests %2 to %3 are not a part of it.</source>
        <translation>Bản phát lại có các request từ 1 đến %1: các request từ %2 đến %3 không thuộc về nó.</translation>
    </message>
    <message>
        <source>The replay holds %1 requests; an animation draws at most %2 (its charts hold the whole run, some 300 bytes a request). Export the run as a web page instead (zsetlab-cli replay FILE --export-html PAGE.html), or record a shorter run.</source>
        <translation>Bản phát lại có %1 request; một hoạt ảnh vẽ tối đa %2 request (các biểu đồ của nó giữ cả lần chạy, khoảng 300 byte mỗi request). Hãy xuất lần chạy thành trang web (zsetlab-cli replay FILE --export-html PAGE.html), hoặc ghi một lần chạy ngắn hơn.</translation>
    </message>
    <message>
        <source>The speed must be from %1 to %2 (got %3).</source>
        <translation>Tốc độ phải từ %1 đến %2 (nhận được %3).</translation>
    </message>
</context>
<context>
    <name>AppTraffic</name>
    <message>
        <source>There is no limiter &quot;%1&quot;: use one of %2.</source>
        <translation>Không có limiter &quot;%1&quot;: hãy dùng một trong %2.</translation>
    </message>
    <message>
        <source>%1 decides by the limit: give a limit above 0.</source>
        <translation>%1 quyết định theo giới hạn: hãy cho một giới hạn lớn hơn 0.</translation>
    </message>
    <message>
        <source>The users must be from 1 to %1, not %2.</source>
        <translation>Số người dùng phải từ 1 đến %1, không phải %2.</translation>
    </message>
    <message>
        <source>The rate must be above 0 per ms and the duration from 1 to %1 ms.</source>
        <translation>Tốc độ phải lớn hơn 0 mỗi ms và thời lượng từ 1 đến %1 ms.</translation>
    </message>
    <message>
        <source>%1 per ms for %2 ms makes more than %3 requests: lower the rate or the duration.</source>
        <translation>%1 mỗi ms trong %2 ms là hơn %3 yêu cầu: hãy giảm tốc độ hoặc thời lượng.</translation>
    </message>
    <message>
        <source>The window must be at least 1 ms and the limit 0 or more.</source>
        <translation>Cửa sổ phải ít nhất 1 ms và giới hạn từ 0 trở lên.</translation>
    </message>
    <message>
        <source>The app is running: stop it first.</source>
        <translation>Ứng dụng đang chạy: hãy dừng nó trước.</translation>
    </message>
    <message>
        <source>Cannot load the script of %1: %2</source>
        <translation>Không nạp được script của %1: %2</translation>
    </message>
    <message>
        <source>Cannot send to the server: %1</source>
        <translation>Không gửi được tới server: %1</translation>
    </message>
    <message>
        <source>The server stopped answering: %1</source>
        <translation>Server ngừng trả lời: %1</translation>
    </message>
</context>
<context>
    <name>BurstEngine</name>
    <message>
        <source>A burst is already running: stop it first.</source>
        <translation>Một burst đang chạy: hãy dừng nó trước.</translation>
    </message>
</context>
<context>
    <name>BurstFields</name>
    <message>
        <source>schedule (exact)</source>
        <translation>theo lịch (chính xác)</translation>
    </message>
    <message>
        <source>system-ms (wall)</source>
        <translation>system-ms (đồng hồ hệ thống)</translation>
    </message>
    <message>
        <source>&amp;Clock</source>
        <translation>Đồng &amp;hồ</translation>
    </message>
    <message>
        <source>&amp;Member</source>
        <translation>&amp;Member</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>&amp;Window</source>
        <translation>Độ dài &amp;window</translation>
    </message>
    <message>
        <source>none</source>
        <translation>không</translation>
    </message>
    <message>
        <source>&amp;Limit</source>
        <translation>&amp;Giới hạn</translation>
    </message>
    <message>
        <source>%1 (the bug)</source>
        <translation>%1 (lỗi)</translation>
    </message>
    <message>
        <source>unique: %1</source>
        <translation>duy nhất: %1</translation>
    </message>
    <message>
        <source>trap: %1</source>
        <translation>bẫy: %1</translation>
    </message>
    <message>
        <source>algorithm: %1</source>
        <translation>thuật toán: %1</translation>
    </message>
</context>
<context>
    <name>BurstPanel</name>
    <message>
        <source>ZSET member of each request</source>
        <translation>Member trong ZSET của mỗi request</translation>
    </message>
    <message>
        <source>member = now (the bug)</source>
        <translation>member = now (lỗi)</translation>
    </message>
    <message>
        <source>unique member</source>
        <translation>member duy nhất</translation>
    </message>
    <message>
        <source>Each request gets a member of its own; choose how beside it.</source>
        <translation>Mỗi request có một member riêng; chọn cách tạo member ở ô bên cạnh.</translation>
    </message>
    <message>
        <source>your script</source>
        <translation>script của bạn</translation>
    </message>
    <message>
        <source>your script: %1</source>
        <translation>script của bạn: %1</translation>
    </message>
    <message>
        <source>Fire your own limiter script; open it in the script doctor first.</source>
        <translation>Bắn bằng script rate limiter của chính bạn; hãy mở nó trong Bác sĩ script trước.</translation>
    </message>
    <message>
        <source>Script Doctor…</source>
        <translation>Bác sĩ script…</translation>
    </message>
    <message>
        <source>Open, edit, check and probe your own limiter script, then use it for bursts.</source>
        <translation>Mở, sửa, kiểm tra và chạy thử script rate limiter của bạn, rồi dùng nó cho các burst.</translation>
    </message>
    <message>
        <source>Compare side by side</source>
        <translation>So sánh song song</translation>
    </message>
    <message>
        <source>Fire the same timestamps at member = now (left) and at the unique member (right), on two keys.</source>
        <translation>Bắn cùng một loạt timestamp vào member = now (bên trái) và vào member duy nhất (bên phải), trên hai key khác nhau.</translation>
    </message>
    <message>
        <source>Burst</source>
        <translation>Burst</translation>
    </message>
    <message>
        <source>&amp;Requests</source>
        <translation>Số &amp;request</translation>
    </message>
    <message>
        <source>How many requests the burst sends.</source>
        <translation>Số request mà burst sẽ gửi.</translation>
    </message>
    <message>
        <source>&amp;Connections</source>
        <translation>Số &amp;kết nối</translation>
    </message>
    <message>
        <source>How many connections send at once, like app servers sharing one limiter.</source>
        <translation>Số kết nối gửi cùng lúc, giống như nhiều app server dùng chung một rate limiter.</translation>
    </message>
    <message>
        <source>&amp;Pipeline</source>
        <translation>&amp;Pipeline</translation>
    </message>
    <message>
        <source>How many calls each connection keeps in flight before waiting for answers.</source>
        <translation>Số lệnh gọi mà mỗi kết nối gửi đi liên tiếp trước khi dừng lại chờ phản hồi.</translation>
    </message>
    <message>
        <source>P&amp;acing</source>
        <translation>&amp;Nhịp gửi</translation>
    </message>
    <message>
        <source>When requests are sent: all at once, evenly spaced, or at random (Poisson) arrival times.</source>
        <translation>Thời điểm gửi các request: tất cả cùng lúc, cách đều nhau, hoặc vào những thời điểm ngẫu nhiên (Poisson).</translation>
    </message>
    <message>
        <source>The interval in microseconds, or the mean arrivals per millisecond.</source>
        <translation>Khoảng cách giữa hai request, tính bằng microsecond, hoặc số request đến trung bình trong mỗi millisecond.</translation>
    </message>
    <message>
        <source>C&amp;lock</source>
        <translation>Đồng &amp;hồ</translation>
    </message>
    <message>
        <source>The &apos;now&apos; each request carries. The schedule clock is exact and repeatable on any machine; the wall clock shows what a real server sees.</source>
        <translation>Giá trị &apos;now&apos; mà mỗi request mang theo. Đồng hồ theo lịch cho kết quả chính xác và lặp lại được trên mọi máy; đồng hồ hệ thống cho thấy đúng những gì một server thật nhìn thấy.</translation>
    </message>
    <message>
        <source>&amp;Window</source>
        <translation>Độ dài &amp;window</translation>
    </message>
    <message>
        <source>The sliding window of the limiter, in milliseconds.</source>
        <translation>Sliding window của rate limiter, tính bằng millisecond.</translation>
    </message>
    <message>
        <source>&amp;Limit</source>
        <translation>G&amp;iới hạn</translation>
    </message>
    <message>
        <source>Admit a request while the count is at most this; 0 = no limit.</source>
        <translation>Cho request đi qua khi count chưa vượt quá giá trị này; 0 = không giới hạn.</translation>
    </message>
    <message>
        <source>burst (as fast as possible)</source>
        <translation>burst (nhanh nhất có thể)</translation>
    </message>
    <message>
        <source>evenly, one every … µs</source>
        <translation>đều đặn, mỗi … µs một request</translation>
    </message>
    <message>
        <source>Poisson, … per ms on average</source>
        <translation>Poisson, trung bình … request mỗi ms</translation>
    </message>
    <message>
        <source>wall clock, ms (System.currentTimeMillis)</source>
        <translation>đồng hồ hệ thống, ms (System.currentTimeMillis)</translation>
    </message>
    <message>
        <source>wall clock, µs</source>
        <translation>đồng hồ hệ thống, µs</translation>
    </message>
    <message>
        <source>frozen: one now for all</source>
        <translation>đóng băng: một now cho tất cả</translation>
    </message>
    <message>
        <source>schedule: the pacing&apos;s own timestamps</source>
        <translation>theo lịch: timestamp do nhịp gửi định sẵn</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>none</source>
        <translation>không</translation>
    </message>
    <message>
        <source>Fire</source>
        <translation>Bắn</translation>
    </message>
    <message>
        <source>Send the burst to Redis (F5).</source>
        <translation>Gửi burst tới Redis (F5).</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Dừng</translation>
    </message>
    <message>
        <source>Stop sending; what was answered stays on screen (Esc).</source>
        <translation>Ngừng gửi; những request đã có phản hồi vẫn được giữ trên màn hình (Esc).</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Đặt lại</translation>
    </message>
    <message>
        <source>Clear the views and delete this burst&apos;s keys from Redis (Ctrl+R).</source>
        <translation>Xoá sạch các khung hiển thị và xoá các key của burst này khỏi Redis (Ctrl+R).</translation>
    </message>
    <message>
        <source> µs</source>
        <translation> µs</translation>
    </message>
    <message>
        <source> per ms</source>
        <translation> mỗi ms</translation>
    </message>
    <message>
        <source>Left: member = now. Right: the same timestamps with the %1 member.</source>
        <translation>Bên trái: member = now. Bên phải: cùng các timestamp đó, với member kiểu %1.</translation>
    </message>
    <message numerus="yes">
        <source>%n simulated app server(s), each with its own clock and connection.</source>
        <translation>
            <numerusform>%n app server mô phỏng, mỗi server có đồng hồ và kết nối riêng.</numerusform>
        </translation>
    </message>
    <message>
        <source>How the unique member is made.</source>
        <translation>Cách tạo ra member duy nhất.</translation>
    </message>
    <message>
        <source>&amp;Users</source>
        <translation>Người &amp;dùng</translation>
    </message>
    <message>
        <source>Spread the requests over this many client keys, each its own limiter, as an API gateway sees its callers (on a cluster they spread over the masters).</source>
        <translation>Chia các yêu cầu cho chừng ấy khóa của client, mỗi khóa một bộ giới hạn riêng, như API gateway thấy những bên gọi nó (trên cluster, các khóa chia ra cho các master).</translation>
    </message>
</context>
<context>
    <name>BurstPlan</name>
    <message>
        <source>pace: interval:MICROS needs a whole number of microseconds from 1 to 60000000 (e.g. interval:250 for 4 requests per ms), not &quot;%1&quot;.</source>
        <translation>pace: interval:MICROS cần một số nguyên microsecond từ 1 đến 60000000 (ví dụ interval:250 cho 4 request mỗi ms), chứ không phải &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>pace: poisson:PER_MS needs a mean rate per millisecond from 0.0001 to 1000 (e.g. poisson:2.5), not &quot;%1&quot;.</source>
        <translation>pace: poisson:PER_MS cần tốc độ trung bình mỗi millisecond từ 0.0001 đến 1000 (ví dụ poisson:2.5), chứ không phải &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>requests must be from 1 to %L1 (got %L2).</source>
        <translation>requests phải từ 1 đến %L1 (nhận được %L2).</translation>
    </message>
    <message>
        <source>connections must be from 1 to %1 (got %2).</source>
        <translation>connections phải từ 1 đến %1 (nhận được %2).</translation>
    </message>
    <message>
        <source>pipeline must be from 1 to %1 (got %2).</source>
        <translation>pipeline phải từ 1 đến %1 (nhận được %2).</translation>
    </message>
    <message>
        <source>window must be from 1 ms to one year (got %1 ms).</source>
        <translation>window phải từ 1 ms đến một năm (nhận được %1 ms).</translation>
    </message>
    <message>
        <source>limit must be from 0 (no limit) to 1000000000 (got %1).</source>
        <translation>limit phải từ 0 (không giới hạn) đến 1000000000 (nhận được %1).</translation>
    </message>
    <message>
        <source>clock offsets must be within one day (got %1 ms).</source>
        <translation>độ lệch đồng hồ phải nằm trong phạm vi một ngày (nhận được %1 ms).</translation>
    </message>
    <message>
        <source>clients: at most %1, one connection each (got %2).</source>
        <translation>clients: tối đa %1, mỗi client một kết nối (nhận được %2).</translation>
    </message>
    <message>
        <source>script: a custom strategy needs a script file.</source>
        <translation>script: cách tạo member tuỳ chỉnh cần có một tệp script.</translation>
    </message>
    <message>
        <source>replay: %1 timestamps for %2 requests.</source>
        <translation>replay: chỉ có %1 timestamp cho %2 request.</translation>
    </message>
    <message>
        <source>reconnect: must be from 0 (fail at once) to %1 ms (got %2 ms).</source>
        <translation>reconnect: phải từ 0 (báo lỗi ngay) đến %1 ms (nhận được %2 ms).</translation>
    </message>
    <message>
        <source>key: zsetlab writes only keys that start with &quot;zsetlab:&quot; (got &quot;%1&quot;).</source>
        <translation>key: zsetlab chỉ ghi vào các key bắt đầu bằng &quot;zsetlab:&quot; (nhận được &quot;%1&quot;).</translation>
    </message>
    <message>
        <source>key: a fresh key has nothing to reuse; name the key to reuse.</source>
        <translation>key: một key mới không có gì để dùng lại; hãy nêu tên key cần dùng lại.</translation>
    </message>
    <message>
        <source>pace: bursts:N@MS needs N requests at once (1 to 1000000) every MS milliseconds (1 to 86400000), e.g. bursts:100@1000, not &quot;%1&quot;.</source>
        <translation>pace: bursts:N@MS cần N request cùng lúc (1 đến 1000000) sau mỗi MS millisecond (1 đến 86400000), ví dụ bursts:100@1000, chứ không phải &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>pace: &quot;%1&quot; is not a pacing; use burst, interval:MICROS, poisson:PER_MS or bursts:N@MS.</source>
        <translation>pace: &quot;%1&quot; không phải là một nhịp gửi hợp lệ; hãy dùng burst, interval:MICROS, poisson:PER_MS hoặc bursts:N@MS.</translation>
    </message>
    <message>
        <source>limit: the %1 limiter decides by its limit itself: give a limit of 1 or more.</source>
        <translation>limit: limiter %1 tự quyết định theo limit của nó: hãy đặt limit từ 1 trở lên.</translation>
    </message>
    <message>
        <source>users must be from 1 to %L1 (got %L2).</source>
        <translation>số người dùng phải từ 1 đến %L1 (nhận được %L2).</translation>
    </message>
</context>
<context>
    <name>BurstRun</name>
    <message>
        <source>Stopped at the first failed request (stop on error): %1</source>
        <translation>Đã dừng ở request lỗi đầu tiên (dừng khi có lỗi): %1</translation>
    </message>
    <message>
        <source>The server is out of memory (maxmemory reached, OOM): %1</source>
        <translation>Server đã hết bộ nhớ (chạm mức maxmemory, OOM): %1</translation>
    </message>
    <message>
        <source> Connecting again for up to %1 s.</source>
        <translation> Đang thử kết nối lại trong tối đa %1 s.</translation>
    </message>
    <message>
        <source> Connecting again was refused: %1</source>
        <translation> Kết nối lại bị từ chối: %1</translation>
    </message>
    <message>
        <source>cannot drive the new connection without blocking</source>
        <translation>không chuyển được kết nối mới sang chế độ non-blocking</translation>
    </message>
    <message>
        <source> It did not come back within %1 s; the last try said: %2</source>
        <translation> Kết nối không phục hồi trong vòng %1 s; lần thử cuối cùng báo: %2</translation>
    </message>
    <message>
        <source>no reply within %1 ms (the command timeout)</source>
        <translation>không có phản hồi trong vòng %1 ms (thời gian chờ của lệnh)</translation>
    </message>
    <message>
        <source>the cluster moved slot %1 to %2:%3</source>
        <translation>cluster đã chuyển slot %1 sang %2:%3</translation>
    </message>
    <message>
        <source>the cluster&apos;s slot map changed</source>
        <translation>bản đồ slot của cluster đã thay đổi</translation>
    </message>
    <message>
        <source>The cluster sent the key to %1, which is not on this machine: zsetlab does not fire at a server elsewhere without consent.</source>
        <translation>Cluster chuyển key sang %1, một máy khác: zsetlab không bắn request vào server ở nơi khác khi chưa được đồng ý.</translation>
    </message>
    <message>
        <source>The cluster kept sending the calls of slot %1 elsewhere for %2 s (the last answer: %3). A resharding may have stopped half way: redis-cli --cluster fix repairs it.</source>
        <translation>Cluster cứ chuyển các lệnh gọi của slot %1 sang nơi khác suốt %2 s (câu trả lời cuối: %3). Có thể một lần resharding đã dừng giữa chừng: redis-cli --cluster fix sẽ sửa nó.</translation>
    </message>
    <message>
        <source>Connection %1 of %2 (%3): %4</source>
        <translation>Kết nối %1 trên %2 (%3): %4</translation>
    </message>
    <message>
        <source>No reply from %1: %2 (the request may or may not have run).</source>
        <translation>Không có trả lời từ %1: %2 (yêu cầu có thể đã chạy hoặc chưa).</translation>
    </message>
    <message>
        <source>On a cluster, give either several users or several app servers (clients), not both.</source>
        <translation>Trên cluster, hãy chọn hoặc nhiều người dùng hoặc nhiều app server (clients), không chọn cả hai.</translation>
    </message>
    <message>
        <source>No master of the cluster serves the key %1 (slot %2): redis-cli --cluster fix repairs the slot map.</source>
        <translation>Không master nào của cluster phục vụ khóa %1 (slot %2): redis-cli --cluster fix sửa bản đồ slot.</translation>
    </message>
    <message>
        <source>The cluster sent the call elsewhere %1 times (the last answer: %2). A resharding may have stopped half way: redis-cli --cluster fix repairs it.</source>
        <translation>Cluster đã chuyển lời gọi đi nơi khác %1 lần (trả lời cuối: %2). Có thể một lần resharding dừng giữa chừng: redis-cli --cluster fix sửa được.</translation>
    </message>
    <message>
        <source>The cluster sent the key %1 to %2:%3, which was not one of its masters when the run started: run again to follow the new slot map.</source>
        <translation>Cluster chuyển khóa %1 sang %2:%3, nút không phải master lúc lượt chạy bắt đầu: hãy chạy lại để theo bản đồ slot mới.</translation>
    </message>
    <message>
        <source>Not sent: %1</source>
        <translation>Chưa gửi: %1</translation>
    </message>
    <message>
        <source>cannot drive the connection to %1 without blocking</source>
        <translation>không thể điều khiển kết nối tới %1 mà không chặn</translation>
    </message>
    <message>
        <source>Your script was not run. On a server zsetlab did not start, a script of yours runs as a temporary ACL user that may touch only the run&apos;s own keys, and %1. Connect as a user that may run ACL SETUSER, use a private server (--private), or, if you trust the script with every key on this server, start zsetlab-cli or zsetlab with --trust-script.</source>
        <translation>Script của bạn không được chạy. Trên một server không do zsetlab khởi động, script của bạn chạy dưới một người dùng ACL tạm thời chỉ được chạm vào các key của chính lần chạy này, và %1. Hãy kết nối bằng một người dùng được phép chạy ACL SETUSER, dùng server riêng (--private), hoặc, nếu bạn tin script này với mọi key trên server, khởi động zsetlab-cli hoặc zsetlab với --trust-script.</translation>
    </message>
    <message>
        <source>zsetlab could not make the temporary ACL user your script runs as: %1</source>
        <translation>zsetlab không tạo được người dùng ACL tạm thời để chạy script của bạn: %1</translation>
    </message>
    <message>
        <source>The script reached for %1, outside the run&apos;s own keys. Redis refused it (the script ran as a temporary ACL user of this run), so nothing there was changed; a limiter should touch only the keys it is given.</source>
        <translation>Script đã chạm tới %1, nằm ngoài các key của lần chạy. Redis đã từ chối (script chạy dưới một người dùng ACL tạm thời của lần chạy này), nên không có gì ở đó bị thay đổi; một limiter chỉ nên chạm vào các key được trao cho nó.</translation>
    </message>
    <message>
        <source>Lost the connection to %1 when %2 of %3 requests had finished: %4.</source>
        <translation>Mất kết nối tới %1 khi %2 trên %3 request đã xong: %4.</translation>
    </message>
    <message>
        <source>the connection to the server was lost</source>
        <translation>kết nối tới server đã bị mất</translation>
    </message>
    <message>
        <source>a call of the script went unanswered past the command timeout, and zsetlab could not reach %1 to end it (%2). If the server answers BUSY, the script still runs: end it with redis-cli SCRIPT KILL.</source>
        <translation>một lệnh gọi script không được trả lời quá thời hạn lệnh, và zsetlab không kết nối được tới %1 để kết thúc nó (%2). Nếu server trả lời BUSY, script vẫn đang chạy: hãy kết thúc nó bằng redis-cli SCRIPT KILL.</translation>
    </message>
    <message>
        <source>the script ran past the command timeout; zsetlab ended it with %1, yet %2 still answers PING with: %3</source>
        <translation>script chạy quá thời hạn lệnh; zsetlab đã kết thúc nó bằng %1, nhưng %2 vẫn trả lời PING bằng: %3</translation>
    </message>
    <message>
        <source>the script ran past the command timeout; zsetlab ended it with %1, and %2 answers again.</source>
        <translation>script chạy quá thời hạn lệnh; zsetlab đã kết thúc nó bằng %1, và %2 đã phản hồi trở lại.</translation>
    </message>
    <message>
        <source>a call went unanswered past the command timeout; by the time zsetlab sent %1, no script was running on %2 any more.</source>
        <translation>một lệnh gọi không được trả lời quá thời hạn lệnh; khi zsetlab gửi %1 thì trên %2 đã không còn script nào chạy.</translation>
    </message>
    <message>
        <source>the script ran past the command timeout and had already written, so Redis refused %1 (UNKILLABLE: &quot;%2&quot;). %3 answers every client BUSY until the script ends; zsetlab does not shut down a server it did not start: the operator can wait, or run SHUTDOWN NOSAVE (every write since the last save is lost) and start it again.</source>
        <translation>script chạy quá thời hạn lệnh và đã ghi dữ liệu, nên Redis từ chối %1 (UNKILLABLE: &quot;%2&quot;). %3 trả lời BUSY cho mọi client cho tới khi script kết thúc; zsetlab không tắt một server mà nó không khởi động: người vận hành có thể chờ, hoặc chạy SHUTDOWN NOSAVE (mọi thao tác ghi kể từ lần lưu cuối sẽ mất) rồi khởi động lại.</translation>
    </message>
    <message>
        <source>the script ran past the command timeout, and %1 on %2 failed (%3). If the server answers BUSY, the script still runs: end it with redis-cli %1.</source>
        <translation>script chạy quá thời hạn lệnh, và %1 trên %2 thất bại (%3). Nếu server trả lời BUSY, script vẫn đang chạy: hãy kết thúc nó bằng redis-cli %1.</translation>
    </message>
    <message>
        <source>zsetlab could not look for keys the script made beside the run&apos;s (%1); %2 lists and deletes them.</source>
        <translation>zsetlab không tìm được các key mà script tạo thêm bên cạnh các key của lần chạy (%1); %2 sẽ liệt kê và xoá chúng.</translation>
    </message>
    <message>
        <source>the script made %L1 keys beside the run&apos;s (%2), kept with it (--keep); %3 deletes them.</source>
        <translation>script đã tạo %L1 key bên cạnh các key của lần chạy (%2), được giữ lại cùng nó (--keep); %3 sẽ xoá chúng.</translation>
    </message>
    <message>
        <source>the script may have made keys beside the run&apos;s that zsetlab could not delete in time; %1 lists and deletes them.</source>
        <translation>script có thể đã tạo các key bên cạnh các key của lần chạy mà zsetlab không xoá kịp; %1 sẽ liệt kê và xoá chúng.</translation>
    </message>
    <message>
        <source>Your script was not run: with a key you named (--key), the sandbox it runs in grants each of the run&apos;s %L1 keys by name, and takes at most %L2. Use fewer users, or leave the key out: a fresh key&apos;s name carries a tag of this run alone, which covers all its keys.</source>
        <translation>Script của bạn không được chạy: với một key do bạn đặt tên (--key), sandbox mà nó chạy trong đó cấp từng key trong %L1 key của lần chạy theo tên, và nhận tối đa %L2. Hãy dùng ít người dùng hơn, hoặc bỏ key đi: tên của một key mới mang một tag chỉ của riêng lần chạy này, bao trùm mọi key của nó.</translation>
    </message>
    <message>
        <source>The script ran %1, which reaches beyond the run&apos;s own keys (another database, another server, or the server&apos;s state). Redis refused it (the script ran as a temporary ACL user of this run), so it did not run; a limiter needs only commands on the keys it is given.</source>
        <translation>Script đã chạy %1, vốn vươn ra ngoài các key của lần chạy (một database khác, một server khác, hoặc trạng thái của server). Redis đã từ chối (script chạy dưới một người dùng ACL tạm thời của lần chạy này), nên lệnh đó không chạy; một limiter chỉ cần các lệnh trên những key được trao cho nó.</translation>
    </message>
    <message>
        <source> The server answers BUSY: the run&apos;s script is still running.</source>
        <translation> Server trả lời BUSY: script của lần chạy vẫn đang chạy.</translation>
    </message>
</context>
<context>
    <name>BurstSummary</name>
    <message>
        <source>%1 expires in %L2 s</source>
        <translation>%1 hết hạn sau %L2 s</translation>
    </message>
    <message>
        <source>%1 has no TTL</source>
        <translation>%1 không có TTL</translation>
    </message>
    <message numerus="yes">
        <source>The run could not delete %n key(s) it made on %1 (%2): %3. %4. Delete them with: redis-cli DEL %5</source>
        <translation>
            <numerusform>Lần chạy không xoá được %n key nó đã tạo trên %1 (%2): %3. %4. Hãy xoá chúng bằng: redis-cli DEL %5</numerusform>
        </translation>
    </message>
    <message>
        <source> and %L1 more</source>
        <translation> và %L1 key khác</translation>
    </message>
</context>
<context>
    <name>CallTemplate</name>
    <message>
        <source>a quote (%1) is not closed</source>
        <translation>dấu nháy (%1) chưa được đóng</translation>
    </message>
    <message>
        <source>&quot;%1&quot; has a } without its {; write }} for a brace</source>
        <translation>&quot;%1&quot; có dấu } mà không có dấu { đi kèm; hãy viết }} nếu muốn một dấu ngoặc nhọn</translation>
    </message>
    <message>
        <source>&quot;%1&quot; opens a { that is not closed; write {{ for a brace</source>
        <translation>&quot;%1&quot; mở một dấu { nhưng chưa đóng; hãy viết {{ nếu muốn một dấu ngoặc nhọn</translation>
    </message>
    <message>
        <source>{%1} is not a placeholder; use one of %2</source>
        <translation>{%1} không phải là placeholder hợp lệ; hãy dùng một trong số: %2</translation>
    </message>
    <message>
        <source>--keys: %1.</source>
        <translation>--keys: %1.</translation>
    </message>
    <message>
        <source>--args: %1.</source>
        <translation>--args: %1.</translation>
    </message>
    <message>
        <source>--keys: give at least one key, e.g. &quot;{key}&quot;.</source>
        <translation>--keys: hãy đưa vào ít nhất một key, ví dụ &quot;{key}&quot;.</translation>
    </message>
    <message>
        <source>--keys: every key must start with {key} (a fresh key under zsetlab:, deleted afterwards), e.g. &quot;{key}&quot; or &quot;{key}:tokens&quot;; &quot;%1&quot; does not.</source>
        <translation>--keys: mọi key phải bắt đầu bằng {key} (một key mới dưới zsetlab:, sẽ bị xoá sau khi chạy xong), ví dụ &quot;{key}&quot; hoặc &quot;{key}:tokens&quot;; còn &quot;%1&quot; thì không.</translation>
    </message>
    <message>
        <source>{%1}: start with a placeholder, e.g. {now-window}</source>
        <translation>{%1}: hãy bắt đầu bằng một placeholder, ví dụ {now-window}</translation>
    </message>
    <message>
        <source>{%1}: {%2} is not a placeholder</source>
        <translation>{%1}: {%2} không phải là placeholder hợp lệ</translation>
    </message>
    <message>
        <source>{%1}: only %2 and whole numbers can be added and subtracted</source>
        <translation>{%1}: chỉ có thể cộng và trừ %2 với các số nguyên</translation>
    </message>
    <message>
        <source>{%1} mixes units; use {now-window} (milliseconds), {now_s-window_s} (seconds) or {now_us} alone</source>
        <translation>{%1} trộn lẫn các đơn vị; hãy dùng {now-window} (millisecond), {now_s-window_s} (giây) hoặc chỉ một mình {now_us}</translation>
    </message>
    <message>
        <source>{%1}: %2 is out of range; add or subtract whole numbers up to %L3</source>
        <translation>{%1}: %2 nằm ngoài phạm vi; chỉ cộng hoặc trừ số nguyên tới %L3</translation>
    </message>
    <message>
        <source>{%1} is not a placeholder; use one of %2, or add, subtract, multiply or divide: {now-window}, {now/window}</source>
        <translation>{%1} không phải là placeholder; hãy dùng một trong %2, hoặc cộng, trừ, nhân, chia: {now-window}, {now/window}</translation>
    </message>
    <message>
        <source>{%1} divides by zero</source>
        <translation>{%1} chia cho 0</translation>
    </message>
    <message>
        <source>{%1}: multiply by whole numbers only, e.g. {now_s*1000}</source>
        <translation>{%1}: chỉ được nhân với số nguyên, ví dụ {now_s*1000}</translation>
    </message>
</context>
<context>
    <name>CappedFile</name>
    <message>
        <source>a named pipe (FIFO)</source>
        <translation>một named pipe (FIFO)</translation>
    </message>
    <message>
        <source>a device</source>
        <translation>một thiết bị</translation>
    </message>
    <message>
        <source>a socket</source>
        <translation>một socket</translation>
    </message>
    <message>
        <source>a folder</source>
        <translation>một thư mục</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>không phải tệp thường</translation>
    </message>
    <message>
        <source>it is %1, not a file: zsetlab reads only regular files (one could wait for a writer, or never end). Save it to a file first</source>
        <translation>đó là %1, không phải tệp: zsetlab chỉ đọc tệp thường (thứ khác có thể phải chờ người ghi, hoặc không bao giờ kết thúc). Hãy lưu nó thành tệp trước</translation>
    </message>
</context>
<context>
    <name>ClientProfile</name>
    <message>
        <source>the interval must be at least 1 us</source>
        <translation>khoảng cách giữa hai request phải ít nhất là 1 µs</translation>
    </message>
    <message>
        <source>the rate must be from 0.0001 to 1000 per ms</source>
        <translation>tốc độ phải từ 0.0001 đến 1000 request mỗi ms</translation>
    </message>
    <message>
        <source>clients: client %1 (&quot;%2&quot;): %3</source>
        <translation>clients: client thứ %1 (&quot;%2&quot;): %3</translation>
    </message>
    <message>
        <source>&quot;%1&quot; needs a value, e.g. rate=2 or offset=40.</source>
        <translation>&quot;%1&quot; cần có giá trị, ví dụ rate=2 hoặc offset=40.</translation>
    </message>
    <message>
        <source>give rate= or pace= once.</source>
        <translation>chỉ được ghi rate= hoặc pace= một lần.</translation>
    </message>
    <message>
        <source>rate=R needs arrivals per ms from 0.0001 to 1000, not &quot;%1&quot;.</source>
        <translation>rate=R cần số request đến mỗi ms từ 0.0001 đến 1000, chứ không phải &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>offset=MS needs whole milliseconds within one day, not &quot;%1&quot;.</source>
        <translation>offset=MS cần một số nguyên millisecond trong phạm vi một ngày, chứ không phải &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>drift=PPM needs parts per million from -%1 to %1, not &quot;%2&quot;.</source>
        <translation>drift=PPM cần số phần triệu (ppm) từ -%1 đến %1, chứ không phải &quot;%2&quot;.</translation>
    </message>
    <message>
        <source>unknown field &quot;%1&quot;; use rate=, pace=, offset= or drift=.</source>
        <translation>không nhận ra trường &quot;%1&quot;; hãy dùng rate=, pace=, offset= hoặc drift=.</translation>
    </message>
    <message>
        <source>clients: client %1 is empty; describe each one, e.g. &quot;rate=2;rate=2,offset=40&quot;.</source>
        <translation>clients: client thứ %1 đang trống; hãy mô tả từng client, ví dụ &quot;rate=2;rate=2,offset=40&quot;.</translation>
    </message>
    <message>
        <source>the clock offset must be within one day (got %1 ms)</source>
        <translation>độ lệch đồng hồ phải nằm trong phạm vi một ngày (nhận được %1 ms)</translation>
    </message>
    <message>
        <source>the drift must be within %1 ppm (got %2)</source>
        <translation>độ trôi đồng hồ phải nằm trong phạm vi %1 ppm (nhận được %2)</translation>
    </message>
    <message>
        <source>clients: client %1: %2.</source>
        <translation>clients: client thứ %1: %2.</translation>
    </message>
    <message>
        <source>a group must have at least 1 request and come every 1 ms or more</source>
        <translation>mỗi nhóm phải có ít nhất 1 request và cách nhau từ 1 ms trở lên</translation>
    </message>
</context>
<context>
    <name>ClientTallyModel</name>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>server</source>
        <translation>server</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>đã gửi</translation>
    </message>
    <message>
        <source>stored</source>
        <translation>được lưu</translation>
    </message>
    <message>
        <source>overwritten</source>
        <translation>bị ghi đè</translation>
    </message>
    <message>
        <source>… another server&apos;s</source>
        <translation>… của server khác</translation>
    </message>
    <message>
        <source>over limit</source>
        <translation>vượt giới hạn</translation>
    </message>
    <message>
        <source>The app server and its arrivals, clock offset and drift.</source>
        <translation>App server cùng kiểu request đến, độ lệch và độ trôi đồng hồ của nó.</translation>
    </message>
    <message>
        <source>Requests finished (answered or failed).</source>
        <translation>Số request đã xong (có phản hồi hoặc bị lỗi).</translation>
    </message>
    <message>
        <source>Requests that created a ZSET member of their own (ZADD replied 1).</source>
        <translation>Số request đã tạo được member riêng trong ZSET (ZADD trả về 1).</translation>
    </message>
    <message>
        <source>Requests that only updated an existing member (ZADD replied 0).</source>
        <translation>Số request chỉ cập nhật một member đã có sẵn (ZADD trả về 0).</translation>
    </message>
    <message>
        <source>Of the overwritten, those whose member another server had created: servers whose clocks agree on the millisecond collide.</source>
        <translation>Trong số request bị ghi đè, những request có member do một server khác tạo ra: các server có đồng hồ khớp nhau đến từng millisecond sẽ đụng nhau.</translation>
    </message>
    <message>
        <source>Requests admitted while the true number in the window was above the limit.</source>
        <translation>Số request được cho qua trong khi số request thật trong window đã vượt giới hạn.</translation>
    </message>
</context>
<context>
    <name>ClusterMap</name>
    <message>
        <source>CLUSTER SLOTS failed on %1: %2</source>
        <translation>CLUSTER SLOTS thất bại trên %1: %2</translation>
    </message>
    <message>
        <source>CLUSTER SLOTS on %1 gave no slot map.</source>
        <translation>CLUSTER SLOTS trên %1 không trả về bản đồ slot nào.</translation>
    </message>
    <message>
        <source>CLUSTER SLOTS on %1 gave a range that cannot be read.</source>
        <translation>CLUSTER SLOTS trên %1 trả về một khoảng slot không đọc được.</translation>
    </message>
    <message>
        <source>The cluster at %1 serves no slot yet: it is still being set up (redis-cli --cluster create).</source>
        <translation>Cluster ở %1 chưa phục vụ slot nào: nó vẫn đang được dựng (redis-cli --cluster create).</translation>
    </message>
    <message>
        <source>No master of the cluster serves slot %1 (of key %2): a node is down or the slots are not all assigned. CLUSTER INFO on any node says more.</source>
        <translation>Không master nào của cluster phục vụ slot %1 (của key %2): có node đang ngừng hoặc chưa gán hết các slot. CLUSTER INFO trên node bất kỳ cho biết thêm.</translation>
    </message>
    <message>
        <source>The cluster serves the key from %1, which is not on this machine. If that server is yours to load, give its address (--redis redis://%1) with --allow-remote.</source>
        <translation>Cluster phục vụ key từ %1, không nằm trên máy này. Nếu server đó là của bạn và được phép tạo tải, hãy đưa địa chỉ của nó (--redis redis://%1) kèm --allow-remote.</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <source>Connect to Redis</source>
        <translation>Kết nối tới Redis</translation>
    </message>
    <message>
        <source>empty: 127.0.0.1:6379, else a private server</source>
        <translation>để trống: dùng 127.0.0.1:6379, nếu không có thì dùng server riêng</translation>
    </message>
    <message>
        <source>&amp;URL</source>
        <translation>&amp;URL</translation>
    </message>
    <message>
        <source>e.g. redis://:secret@127.0.0.1:6380/2</source>
        <translation>ví dụ: redis://:secret@127.0.0.1:6380/2</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>TCP host and port</source>
        <translation>Host và port TCP</translation>
    </message>
    <message>
        <source>Unix socket</source>
        <translation>Unix socket</translation>
    </message>
    <message>
        <source>default user</source>
        <translation>người dùng mặc định</translation>
    </message>
    <message>
        <source>Connect by</source>
        <translation>Kết nối qua</translation>
    </message>
    <message>
        <source>&amp;Host</source>
        <translation>&amp;Host</translation>
    </message>
    <message>
        <source>&amp;Port</source>
        <translation>&amp;Port</translation>
    </message>
    <message>
        <source>&amp;Socket</source>
        <translation>&amp;Socket</translation>
    </message>
    <message>
        <source>U&amp;ser</source>
        <translation>&amp;Người dùng</translation>
    </message>
    <message>
        <source>Pass&amp;word</source>
        <translation>&amp;Mật khẩu</translation>
    </message>
    <message>
        <source>&amp;Database</source>
        <translation>Cơ sở &amp;dữ liệu</translation>
    </message>
    <message>
        <source>Host, port, socket</source>
        <translation>Host, port, socket</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>How long to wait for a connection or an answer before giving up.</source>
        <translation>Thời gian chờ kết nối hoặc chờ phản hồi trước khi bỏ cuộc.</translation>
    </message>
    <message>
        <source>&amp;Timeout</source>
        <translation>&amp;Thời gian chờ</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Kết nối</translation>
    </message>
    <message>
        <source>redis://[[user]:password@]host[:port][/db], rediss://… for TLS, or unix:///path/to.sock[?db=N]</source>
        <translation>redis://[[user]:password@]host[:port][/db], rediss://… cho TLS, hoặc unix:///path/to.sock[?db=N]</translation>
    </message>
    <message>
        <source>Use T&amp;LS (rediss://)</source>
        <translation>Dùng T&amp;LS (rediss://)</translation>
    </message>
    <message>
        <source>TLS (rediss://)</source>
        <translation>TLS (rediss://)</translation>
    </message>
    <message>
        <source>empty: the system&apos;s CA store</source>
        <translation>để trống: kho CA của hệ thống</translation>
    </message>
    <message>
        <source>only if the server asks for one</source>
        <translation>chỉ khi máy chủ yêu cầu</translation>
    </message>
    <message>
        <source>the client certificate&apos;s key</source>
        <translation>khóa của chứng chỉ máy khách</translation>
    </message>
    <message>
        <source>empty: the host</source>
        <translation>để trống: tên máy</translation>
    </message>
    <message>
        <source>The name sent to the server (SNI) and looked for in its certificate.</source>
        <translation>Tên gửi cho máy chủ (SNI) và được tìm trong chứng chỉ của nó.</translation>
    </message>
    <message>
        <source>Do not check the server&apos;s certificate (test servers only)</source>
        <translation>Không kiểm tra chứng chỉ của máy chủ (chỉ cho máy chủ thử nghiệm)</translation>
    </message>
    <message>
        <source>&amp;CA certificate</source>
        <translation>Chứng chỉ &amp;CA</translation>
    </message>
    <message>
        <source>CA certificate</source>
        <translation>Chứng chỉ CA</translation>
    </message>
    <message>
        <source>Client c&amp;ertificate</source>
        <translation>Chứng chỉ máy &amp;khách</translation>
    </message>
    <message>
        <source>Client certificate</source>
        <translation>Chứng chỉ máy khách</translation>
    </message>
    <message>
        <source>Client &amp;key</source>
        <translation>&amp;Khóa máy khách</translation>
    </message>
    <message>
        <source>Client key</source>
        <translation>Khóa máy khách</translation>
    </message>
    <message>
        <source>Server &amp;name</source>
        <translation>&amp;Tên máy chủ</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Chọn tệp…</translation>
    </message>
    <message>
        <source>PEM files (*.pem *.crt *.key *.cert);;All files (*)</source>
        <translation>Tệp PEM (*.pem *.crt *.key *.cert);;Mọi tệp (*)</translation>
    </message>
</context>
<context>
    <name>CountsChart</name>
    <message>
        <source>Green: how many requests really were in the window. Blue: what the script counted. The shaded gap is what the limiter missed; marks on the limit line are requests admitted beyond the limit.</source>
        <translation>Màu xanh lá: số request thật sự có trong window. Màu xanh dương: số mà script đếm được. Phần tô bóng ở giữa là những gì rate limiter bỏ sót; các dấu trên đường giới hạn là những request vẫn được cho qua dù đã vượt giới hạn.</translation>
    </message>
    <message>
        <source>missed</source>
        <translation>bỏ sót</translation>
    </message>
    <message>
        <source>truth</source>
        <translation>thực tế</translation>
    </message>
    <message>
        <source>counted</source>
        <translation>đã đếm</translation>
    </message>
    <message>
        <source>limit</source>
        <translation>giới hạn</translation>
    </message>
    <message>
        <source>&gt; limit</source>
        <translation>&gt; giới hạn</translation>
    </message>
    <message>
        <source>request</source>
        <translation>request</translation>
    </message>
    <message>
        <source>in the window</source>
        <translation>trong window</translation>
    </message>
</context>
<context>
    <name>DataExport</name>
    <message>
        <source>The key %1 is not a sorted set.</source>
        <translation>Key %1 không phải là sorted set.</translation>
    </message>
</context>
<context>
    <name>DebuggerView</name>
    <message>
        <source>The script ended and replied %1. %2</source>
        <translation>Script đã chạy xong và trả về %1. %2</translation>
    </message>
    <message>
        <source>Forked mode: every change was rolled back.</source>
        <translation>Chế độ fork: mọi thay đổi đã được hoàn tác.</translation>
    </message>
    <message>
        <source>Synchronous mode: the changes were kept.</source>
        <translation>Chế độ đồng bộ: các thay đổi được giữ lại.</translation>
    </message>
    <message>
        <source>Debugging stopped: %1. The server is free.</source>
        <translation>Đã dừng debug: %1. Server đã rảnh trở lại.</translation>
    </message>
    <message>
        <source>Step through the script</source>
        <translation>Chạy từng bước script</translation>
    </message>
    <message>
        <source>redis.call</source>
        <translation>redis.call</translation>
    </message>
    <message>
        <source>reply</source>
        <translation>phản hồi</translation>
    </message>
    <message>
        <source>local</source>
        <translation>biến local</translation>
    </message>
    <message>
        <source>value</source>
        <translation>giá trị</translation>
    </message>
    <message>
        <source>member</source>
        <translation>member</translation>
    </message>
    <message>
        <source>score</source>
        <translation>score</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Bắt đầu</translation>
    </message>
    <message>
        <source>Step (F10)</source>
        <translation>Bước tiếp (F10)</translation>
    </message>
    <message>
        <source>Continue to the End</source>
        <translation>Chạy tiếp đến cuối</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Dừng</translation>
    </message>
    <message>
        <source>&lt;b&gt;Request:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Request:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>Not connected to Redis: connect first.</source>
        <translation>Chưa kết nối tới Redis: hãy kết nối trước.</translation>
    </message>
    <message>
        <source>Synchronous mode: the server serves no one else until the script ends or you stop.</source>
        <translation>Chế độ đồng bộ: server không phục vụ ai khác cho đến khi script chạy xong hoặc bạn dừng lại.</translation>
    </message>
    <message>
        <source>Forked mode: a copy of the server runs the script; nothing it writes is kept.</source>
        <translation>Chế độ fork: một bản sao của server chạy script; mọi thứ script ghi vào đều không được giữ lại.</translation>
    </message>
    <message>
        <source>Forked (changes rolled back)</source>
        <translation>Fork (thay đổi được hoàn tác)</translation>
    </message>
    <message>
        <source>SCRIPT DEBUG YES: a copy of the server runs the script; other clients are served meanwhile and nothing the script writes is kept.</source>
        <translation>SCRIPT DEBUG YES: một bản sao của server chạy script; các client khác vẫn được phục vụ trong lúc đó và không có gì script ghi vào được giữ lại.</translation>
    </message>
    <message>
        <source>Synchronous (changes kept)</source>
        <translation>Đồng bộ (thay đổi được giữ lại)</translation>
    </message>
    <message>
        <source>SCRIPT DEBUG SYNC: the server itself runs the script and serves no one else until it ends; what the script writes is kept.</source>
        <translation>SCRIPT DEBUG SYNC: chính server chạy script và không phục vụ ai khác cho đến khi script kết thúc; những gì script ghi vào được giữ lại.</translation>
    </message>
    <message>
        <source>Redis&apos;s debugger printed %1.</source>
        <translation>Trình gỡ lỗi của Redis in ra %1.</translation>
    </message>
    <message numerus="yes">
        <source>Stopped at line %1. ZSET: %Ln member(s). %2</source>
        <translation>
            <numerusform>Dừng ở dòng %1. ZSET: %Ln member. %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Step as an EVAL Script</source>
        <translation>Chạy từng bước như script EVAL</translation>
    </message>
    <message>
        <source>This library registers no function zsetlab can read, so there is nothing to step.</source>
        <translation>Thư viện này không đăng ký hàm nào mà zsetlab đọc được, nên không có gì để chạy từng bước.</translation>
    </message>
    <message>
        <source>A function cannot be stepped as it is: the server&apos;s Lua debugger takes EVAL scripts only, and FCALL never stops at a line. Start steps %1 as an EVAL script: the library&apos;s code, line for line, with a last line that calls %1 with KEYS and ARGV.</source>
        <translation>Không thể chạy từng bước một hàm như nó vốn có: trình gỡ lỗi Lua của server chỉ nhận script EVAL, và FCALL không bao giờ dừng ở một dòng. Nút Bắt đầu sẽ chạy từng bước %1 như một script EVAL: mã của thư viện, giữ nguyên từng dòng, cùng một dòng cuối gọi %1 với KEYS và ARGV.</translation>
    </message>
    <message>
        <source>%1 (%2 as an EVAL script)</source>
        <translation>%1 (%2 dưới dạng script EVAL)</translation>
    </message>
</context>
<context>
    <name>DockTitleBar</name>
    <message>
        <source>Float or dock this panel</source>
        <translation>Tách hoặc gắn lại bảng này</translation>
    </message>
    <message>
        <source>Close this panel</source>
        <translation>Đóng bảng này</translation>
    </message>
</context>
<context>
    <name>EvictionQuestion</name>
    <message>
        <source>zsetlab could not read it: %1</source>
        <translation>zsetlab không đọc được: %1</translation>
    </message>
    <message>
        <source>Write to a server that evicts keys?</source>
        <translation>Ghi vào một server có xóa bớt key?</translation>
    </message>
    <message>
        <source>%1 deletes keys to make room when it is full (memory: %2). A run there could push out keys zsetlab did not make, and a script of yours may write any amount in one call.

If you go on, zsetlab stops a run once the server has grown by half of the memory it had left, and deletes the run&apos;s keys. Go on only if the keys on this server may be lost.</source>
        <translation>%1 xóa bớt key để lấy chỗ khi đầy (bộ nhớ: %2). Một lần chạy ở đó có thể đẩy ra các key mà zsetlab không tạo, và script của bạn có thể ghi bao nhiêu cũng được trong một lệnh gọi.

Nếu bạn tiếp tục, zsetlab dừng lần chạy khi server đã tăng thêm một nửa phần bộ nhớ còn trống, và xóa các key của lần chạy. Chỉ tiếp tục nếu các key trên server này có thể bị mất.</translation>
    </message>
</context>
<context>
    <name>ExportActions</name>
    <message>
        <source>Export &amp;Picture…</source>
        <translation>Xuất &amp;hình ảnh…</translation>
    </message>
    <message>
        <source>&amp;Copy Picture</source>
        <translation>&amp;Sao chép hình ảnh</translation>
    </message>
    <message>
        <source>Export &amp;Data</source>
        <translation>Xuất &amp;dữ liệu</translation>
    </message>
    <message>
        <source>&amp;Request Log (CSV or JSON)…</source>
        <translation>&amp;Nhật ký request (CSV hoặc JSON)…</translation>
    </message>
    <message>
        <source>&amp;ZSET Snapshot (CSV or JSON)…</source>
        <translation>Bản chụp &amp;ZSET (CSV hoặc JSON)…</translation>
    </message>
    <message>
        <source>&amp;Summary (CSV or JSON)…</source>
        <translation>&amp;Tóm tắt (CSV hoặc JSON)…</translation>
    </message>
    <message>
        <source>CSV tables (*.csv);;JSON documents (*.json)</source>
        <translation>Bảng CSV (*.csv);;Tài liệu JSON (*.json)</translation>
    </message>
    <message>
        <source>Whole window</source>
        <translation>Toàn bộ cửa sổ</translation>
    </message>
    <message>
        <source>Runs (both sides in compare mode)</source>
        <translation>Các lượt chạy (cả hai bên khi so sánh)</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Dòng thời gian</translation>
    </message>
    <message>
        <source>Counts chart</source>
        <translation>Biểu đồ số đếm</translation>
    </message>
    <message>
        <source>ZSET table</source>
        <translation>Bảng ZSET</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Đã lưu %1</translation>
    </message>
    <message>
        <source>Copied a picture of the runs to the clipboard.</source>
        <translation>Đã sao chép hình ảnh các lượt chạy vào bộ nhớ tạm.</translation>
    </message>
    <message>
        <source>Export Request Log</source>
        <translation>Xuất nhật ký request</translation>
    </message>
    <message>
        <source>Export Summary</source>
        <translation>Xuất bản tóm tắt</translation>
    </message>
    <message>
        <source>Export ZSET Snapshot</source>
        <translation>Xuất bản chụp ZSET</translation>
    </message>
    <message>
        <source>Fire a burst first: there is no ZSET yet.</source>
        <translation>Hãy bắn một burst trước: hiện chưa có ZSET nào.</translation>
    </message>
    <message numerus="yes">
        <source>Saved %Ln member(s) to %1</source>
        <translation>
            <numerusform>Đã lưu %Ln member vào %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export Picture</source>
        <translation>Xuất hình ảnh</translation>
    </message>
    <message>
        <source>Which part of the window to export.</source>
        <translation>Phần nào của cửa sổ sẽ được xuất.</translation>
    </message>
    <message>
        <source>PNG image</source>
        <translation>Ảnh PNG</translation>
    </message>
    <message>
        <source>SVG drawing (text stays text)</source>
        <translation>Hình vẽ SVG (chữ vẫn giữ nguyên là chữ)</translation>
    </message>
    <message>
        <source>1x</source>
        <translation>1x</translation>
    </message>
    <message>
        <source>2x (sharp on high-density screens and in print)</source>
        <translation>2x (sắc nét trên màn hình mật độ điểm ảnh cao và khi in)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Chọn tệp…</translation>
    </message>
    <message>
        <source>&amp;Part</source>
        <translation>&amp;Phần</translation>
    </message>
    <message>
        <source>&amp;Format</source>
        <translation>Đị&amp;nh dạng</translation>
    </message>
    <message>
        <source>&amp;Scale</source>
        <translation>Tỉ &amp;lệ</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Tệp</translation>
    </message>
    <message>
        <source>SVG drawings (*.svg)</source>
        <translation>Hình vẽ SVG (*.svg)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>Ảnh PNG (*.png)</translation>
    </message>
    <message>
        <source>Choose a file to write.</source>
        <translation>Hãy chọn tệp để ghi.</translation>
    </message>
</context>
<context>
    <name>FireControl</name>
    <message>
        <source>Load a remote server?</source>
        <translation>Tạo tải lên một server ở xa?</translation>
    </message>
    <message>
        <source>%1 is not on this machine. This writes thousands of requests to it (under keys starting with zsetlab:). Fire only at a server that is yours to load.</source>
        <translation>%1 không nằm trên máy này. Thao tác này sẽ ghi hàng nghìn request vào server đó (dưới các key bắt đầu bằng zsetlab:). Chỉ bắn vào server mà bạn được phép tạo tải.</translation>
    </message>
    <message>
        <source>A burst is running: stop it first.</source>
        <translation>Đang có một burst chạy: hãy dừng nó trước.</translation>
    </message>
    <message>
        <source>Not connected to Redis: use Connect… first.</source>
        <translation>Chưa kết nối tới Redis: hãy bấm Kết nối… trước.</translation>
    </message>
    <message>
        <source>%1 is not on this machine: zsetlab fires at a remote server only when allowed (--allow-remote).</source>
        <translation>%1 không nằm trên máy này: zsetlab chỉ bắn vào server ở xa khi được cho phép (--allow-remote).</translation>
    </message>
    <message>
        <source>Not fired: %1 is not on this machine.</source>
        <translation>Chưa bắn: %1 không nằm trên máy này.</translation>
    </message>
    <message>
        <source>Not fired: %1 deletes keys to make room when it is full.</source>
        <translation>Không bắn: %1 xóa bớt key để lấy chỗ khi đầy.</translation>
    </message>
</context>
<context>
    <name>ForkDialog</name>
    <message>
        <source>What if…</source>
        <translation>Nếu như…</translation>
    </message>
    <message>
        <source>Requests %1 to %2 fired again on Redis with the same timestamps and users, on new keys that first hold the ZSET as it was before request %1. The original run stays on the left; the what-if runs on the right.</source>
        <translation>Các request từ %1 đến %2 được bắn lại vào Redis với cùng timestamp và người dùng, trên các key mới chứa sẵn ZSET như trước request %1. Lần chạy gốc ở bên trái; phương án “nếu như” chạy bên phải.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>không</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>Fire the what-if</source>
        <translation>Bắn phương án nếu như</translation>
    </message>
    <message>
        <source>Limiter:</source>
        <translation>Bộ giới hạn:</translation>
    </message>
    <message>
        <source>Limit:</source>
        <translation>Giới hạn:</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>Cửa sổ:</translation>
    </message>
</context>
<context>
    <name>Handout</name>
    <message>
        <source>zsetlab lesson</source>
        <translation>Bài học zsetlab</translation>
    </message>
    <message>
        <source>Cannot write %1: the PDF writer did not start.</source>
        <translation>Không ghi được %1: trình ghi PDF không khởi động được.</translation>
    </message>
    <message>
        <source>zsetlab lesson · step %1 of %2 · the answer</source>
        <translation>bài học zsetlab · bước %1/%2 · đáp án</translation>
    </message>
    <message>
        <source>zsetlab lesson · step %1 of %2 · the question</source>
        <translation>bài học zsetlab · bước %1/%2 · câu hỏi</translation>
    </message>
</context>
<context>
    <name>HeadlessExport</name>
    <message>
        <source>The burst did not end within %1 s.</source>
        <translation>Burst không kết thúc trong vòng %1 s.</translation>
    </message>
    <message>
        <source>Interrupted before the burst started.</source>
        <translation>Bị ngắt trước khi burst bắt đầu.</translation>
    </message>
    <message>
        <source>Interrupted: the burst was stopped before its end.</source>
        <translation>Bị ngắt: burst đã dừng trước khi kết thúc.</translation>
    </message>
</context>
<context>
    <name>KnownLimiters</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>derived from %1</source>
        <translation>dẫn xuất từ %1</translation>
    </message>
    <message>
        <source>It counts in fixed windows that start anew all at once: up to twice the rate passes around a window&apos;s end.</source>
        <translation>Nó đếm theo cửa sổ cố định, bắt đầu lại cùng một lúc: quanh cuối mỗi cửa sổ có thể lọt qua tới gấp đôi tốc độ.</translation>
    </message>
    <message>
        <source>The script fails with &quot;bad argument #2 to &apos;unpack&apos; (string expected, got nil)&quot; when it looks for a permit that is not there, and with &quot;too many results to unpack&quot; when thousands of permits expire at once.</source>
        <translation>Script lỗi &quot;bad argument #2 to &apos;unpack&apos; (string expected, got nil)&quot; khi tìm một permit không tồn tại, và lỗi &quot;too many results to unpack&quot; khi hàng nghìn permit hết hạn cùng lúc.</translation>
    </message>
    <message>
        <source>EXPIRE gets the window as a fraction of a second when it is not a whole number of seconds, and Redis refuses it (&quot;ERR value is not an integer or out of range&quot;), after the request was stored.</source>
        <translation>EXPIRE nhận cửa sổ dưới dạng số giây lẻ khi nó không tròn giây, và Redis từ chối (&quot;ERR value is not an integer or out of range&quot;), sau khi request đã được lưu.</translation>
    </message>
    <message>
        <source>It counts with ZCARD before it removes the requests that left the window, so requests at the window&apos;s edge are refused while there is room (a fix is proposed in apache/shenyu#7120).</source>
        <translation>Nó đếm bằng ZCARD trước khi xóa các request đã ra khỏi cửa sổ, nên request ở mép cửa sổ bị từ chối dù vẫn còn chỗ (bản sửa được đề xuất ở apache/shenyu#7120).</translation>
    </message>
    <message>
        <source>The gateway passes its own clock: a node whose clock is behind stores an older time, and the next call refills the bucket again, so more tokens are handed out than the rate allows.</source>
        <translation>Gateway truyền đồng hồ của chính nó: một node có đồng hồ chậm lưu thời điểm cũ hơn, lần gọi sau lại nạp đầy bucket, nên số token phát ra nhiều hơn tốc độ cho phép.</translation>
    </message>
    <message>
        <source>It takes whole seconds from TIME, so tokens come back in one-second steps instead of continuously (a fix is proposed in spring-cloud/spring-cloud-gateway#4084).</source>
        <translation>Nó lấy số giây tròn từ TIME, nên token được hoàn lại theo từng bước một giây thay vì liên tục (bản sửa được đề xuất ở spring-cloud/spring-cloud-gateway#4084).</translation>
    </message>
    <message>
        <source>It rounds what is left to the nearest whole request (+ 0.5), so RetryAfter and Remaining tell a client to come back early.</source>
        <translation>Nó làm tròn phần còn lại tới request nguyên gần nhất (+ 0.5), nên RetryAfter và Remaining bảo client quay lại quá sớm.</translation>
    </message>
    <message>
        <source>A user of v10.0.1 reports this script stopping at its SET ... EX math.ceil(reset_after) with &quot;ERR value is not an integer or out of range&quot;; the report does not settle the cause.</source>
        <translation>Một người dùng v10.0.1 báo script này dừng ở SET ... EX math.ceil(reset_after) với &quot;ERR value is not an integer or out of range&quot;; báo cáo chưa xác định nguyên nhân.</translation>
    </message>
    <message>
        <source>With a quota of 1 it answers Allowed where it should answer HitQuota, so the caller never learns the quota is used up.</source>
        <translation>Với hạn mức 1, nó trả Allowed thay vì HitQuota, nên bên gọi không bao giờ biết hạn mức đã dùng hết.</translation>
    </message>
    <message>
        <source>It stores the caller&apos;s now as the last refill without checking that it is newer: a delayed call moves the time back and the next call refills the bucket again (9 grants in one second at a rate of 5 in the report).</source>
        <translation>Nó lưu now của bên gọi làm lần nạp cuối mà không kiểm tra nó mới hơn: một lần gọi bị trễ kéo thời điểm lùi lại và lần gọi sau lại nạp bucket (9 lần cho phép trong một giây với tốc độ 5 trong báo cáo).</translation>
    </message>
    <message>
        <source>It names the previous window&apos;s key wrongly, so it never finds the previous window&apos;s count and limits like a fixed window: up to twice the limit passes around a window&apos;s end.</source>
        <translation>Nó đặt sai tên key của cửa sổ trước, nên không bao giờ thấy số đếm của cửa sổ trước và giới hạn như cửa sổ cố định: quanh cuối cửa sổ có thể lọt qua tới gấp đôi giới hạn.</translation>
    </message>
    <message>
        <source>Refused requests are logged too, so a client that keeps sending above the limit is refused for good; Tyk keeps this by design.</source>
        <translation>Request bị từ chối cũng được ghi vào log, nên một client liên tục gửi vượt giới hạn sẽ bị từ chối mãi; Tyk giữ cách này theo thiết kế.</translation>
    </message>
    <message>
        <source>PTTL can answer 0 for a key about to expire; the script then sets a new expiry while the old count carries on, so a window can last two or three times too long.</source>
        <translation>PTTL có thể trả 0 cho một key sắp hết hạn; khi đó script đặt hạn mới trong khi số đếm cũ vẫn tiếp tục, nên một cửa sổ có thể kéo dài gấp hai, gấp ba.</translation>
    </message>
    <message>
        <source>It still counts with INCR before it reads PTTL, so a key at the moment it expires can keep its count instead of starting a new window.</source>
        <translation>Nó vẫn đếm bằng INCR trước khi đọc PTTL, nên một key đúng lúc hết hạn có thể giữ số đếm cũ thay vì bắt đầu cửa sổ mới.</translation>
    </message>
    <message>
        <source>Its keys live floor(2 × token limit / tokens per period) seconds, a count of periods taken for seconds: with a period longer than a second the bucket is forgotten and comes back full too early, and when more than twice the limit is refilled per period the TTL rounds down to 0 and SETEX refuses it (&quot;invalid expire time&quot;), so every call fails.</source>
        <translation>Các key của nó sống floor(2 × token limit / tokens per period) giây, tức là một số chu kỳ bị hiểu thành số giây: với chu kỳ dài hơn một giây, bucket bị quên đi và đầy trở lại quá sớm; còn khi mỗi chu kỳ nạp lại hơn gấp đôi giới hạn, TTL bị làm tròn xuống 0 và SETEX từ chối nó (&quot;invalid expire time&quot;), nên mọi lệnh gọi đều lỗi.</translation>
    </message>
    <message>
        <source>The sorted set of requests in progress has no TTL, and only the gateway&apos;s callback after a request removes its entry: a request whose callback never runs (a crash, an error, a failed ZREM) keeps its slot for ever, and a few of them block the key for good.</source>
        <translation>Sorted set chứa các request đang xử lý không có TTL, và chỉ callback của gateway sau mỗi request mới xoá phần tử của nó: một request mà callback không bao giờ chạy (gateway sập, một lỗi, một lệnh ZREM thất bại) giữ chỗ của nó mãi mãi, và chỉ vài request như thế là đủ chặn key vĩnh viễn.</translation>
    </message>
</context>
<context>
    <name>LdbTranscript</name>
    <message>
        <source>≈ %1 (the debugger prints 6 digits)</source>
        <translation>≈ %1 (trình gỡ lỗi chỉ in 6 chữ số)</translation>
    </message>
</context>
<context>
    <name>LessonExport</name>
    <message>
        <source>The lesson did not end within %1 s.</source>
        <translation>Bài học không kết thúc trong vòng %1 s.</translation>
    </message>
    <message>
        <source>--lesson: the lesson has %1 steps, there is no step %2.</source>
        <translation>--lesson: bài học có %1 bước, không có bước %2.</translation>
    </message>
    <message>
        <source>Cannot make the folder %1.</source>
        <translation>Không tạo được thư mục %1.</translation>
    </message>
    <message>
        <source>Step %1: %2</source>
        <translation>Bước %1: %2</translation>
    </message>
    <message>
        <source>Interrupted: the lesson was stopped before its end; nothing was written.</source>
        <translation>Bị ngắt: bài học bị dừng trước khi xong; không tệp nào được ghi.</translation>
    </message>
</context>
<context>
    <name>LessonFigure</name>
    <message>
        <source>&lt;b&gt;lua/now.lua&lt;/b&gt;, the article&apos;s script: its four steps marked, step 2&apos;s ZADD darker.</source>
        <translation>&lt;b&gt;lua/now.lua&lt;/b&gt;, script của bài viết: bốn bước được đánh dấu, ZADD của bước 2 tô đậm hơn.</translation>
    </message>
    <message>
        <source>The key&apos;s TTL against the window</source>
        <translation>TTL của key so với window</translation>
    </message>
    <message>
        <source>the window</source>
        <translation>window</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>the key&apos;s TTL</source>
        <translation>TTL của key</translation>
    </message>
    <message>
        <source>%1 s (%2 min), %3 × the window</source>
        <translation>%1 s (%2 phút), gấp %3 lần window</translation>
    </message>
    <message>
        <source>PTTL read from Redis right after the request. PEXPIRE key %1 would keep it %1 ms.</source>
        <translation>PTTL đọc từ Redis ngay sau request. PEXPIRE key %1 sẽ giữ nó %1 ms.</translation>
    </message>
    <message>
        <source>none: the key stays</source>
        <translation>không có: key còn mãi</translation>
    </message>
    <message>
        <source>no key</source>
        <translation>không có key</translation>
    </message>
    <message>
        <source>Memory per user: MEMORY USAGE of each algorithm&apos;s key</source>
        <translation>Bộ nhớ cho mỗi người dùng: MEMORY USAGE của key mỗi thuật toán</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 byte</translation>
    </message>
    <message>
        <source>sliding-log: %1 members in the window, about %2 bytes each.</source>
        <translation>sliding-log: %1 member trong window, mỗi member khoảng %2 byte.</translation>
    </message>
</context>
<context>
    <name>LessonPanel</name>
    <message>
        <source>◀ Back</source>
        <translation>◀ Quay lại</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Tiếp ▶</translation>
    </message>
    <message>
        <source>Do this step on the real Redis server.</source>
        <translation>Thực hiện bước này trên server Redis thật.</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>Bước %1/%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Result:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Kết quả:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>Not connected to Redis: connect first (Burst &gt; Connect to Redis).</source>
        <translation>Chưa kết nối tới Redis: hãy kết nối trước (Burst &gt; Kết nối tới Redis).</translation>
    </message>
    <message>
        <source>Running on %1…</source>
        <translation>Đang chạy trên %1…</translation>
    </message>
    <message>
        <source>; counts returned: %1; ZADD replied: %2</source>
        <translation>; các count trả về: %1; ZADD trả về: %2</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>không rõ</translation>
    </message>
    <message>
        <source>A sliding-window limiter in a ZSET</source>
        <translation>Rate limiter kiểu sliding window trong một ZSET</translation>
    </message>
    <message>
        <source>Show the script</source>
        <translation>Xem script</translation>
    </message>
    <message>
        <source>Three requests in one millisecond</source>
        <translation>Ba request trong một millisecond</translation>
    </message>
    <message>
        <source>Send 3 requests in one millisecond</source>
        <translation>Gửi 3 request trong một millisecond</translation>
    </message>
    <message>
        <source>Show the member and its writes</source>
        <translation>Xem member và các lần ghi vào nó</translation>
    </message>
    <message>
        <source>Send 30 requests over 3 connections</source>
        <translation>Gửi 30 request qua 3 kết nối</translation>
    </message>
    <message>
        <source>Send 20 requests with limit 5</source>
        <translation>Gửi 20 request với giới hạn 5</translation>
    </message>
    <message>
        <source>The fix: a unique member</source>
        <translation>Cách sửa: member duy nhất</translation>
    </message>
    <message>
        <source>: this server reseeds per call, the fix collides here</source>
        <translation>: server này seed lại ở mỗi lần gọi, nên cách sửa vẫn bị trùng ở đây</translation>
    </message>
    <message>
        <source>Send 1 request and read the key&apos;s TTL</source>
        <translation>Gửi 1 request rồi đọc TTL của key</translation>
    </message>
    <message>
        <source>%1, e.g. member %2</source>
        <translation>%1, ví dụ member %2</translation>
    </message>
    <message>
        <source>%1: the key has no TTL (%2)</source>
        <translation>%1: key không có TTL (%2)</translation>
    </message>
    <message>
        <source>%1: %L2 admitted with limit 5; %L3 of them beyond the limit</source>
        <translation>%1: %L2 request được cho qua với giới hạn 5; %L3 trong số đó vượt giới hạn</translation>
    </message>
    <message>
        <source>%1: %L2 stored, %L3 beyond the limit; %4: %L5 stored, %L6 beyond the limit</source>
        <translation>%1: lưu được %L2, %L3 vượt giới hạn; %4: lưu được %L5, %L6 vượt giới hạn</translation>
    </message>
    <message>
        <source>%1: %L2 distinct microsecond timestamps were stored as %L3 members</source>
        <translation>%1: %L2 timestamp microsecond khác nhau chỉ được lưu thành %L3 member</translation>
    </message>
    <message>
        <source>Ask the class first</source>
        <translation>Hỏi cả lớp trước</translation>
    </message>
    <message>
        <source>Before each step&apos;s action, ask the class to predict what Redis will do, enter their guess, then compare it with the result.</source>
        <translation>Trước thao tác của mỗi bước, hãy yêu cầu cả lớp dự đoán Redis sẽ làm gì, nhập dự đoán của lớp, rồi so sánh với kết quả.</translation>
    </message>
    <message>
        <source>The class&apos;s guess:</source>
        <translation>Dự đoán của lớp:</translation>
    </message>
    <message>
        <source>no guess</source>
        <translation>chưa đoán</translation>
    </message>
    <message>
        <source>Redis: %1 (no guess entered)</source>
        <translation>Redis: %1 (chưa nhập dự đoán)</translation>
    </message>
    <message>
        <source>Class: %1 · Redis: %2 · the class was right</source>
        <translation>Lớp: %1 · Redis: %2 · lớp đã đoán đúng</translation>
    </message>
    <message>
        <source>Class: %1 · Redis: %2 · not what the class expected</source>
        <translation>Lớp: %1 · Redis: %2 · khác với dự đoán của lớp</translation>
    </message>
    <message>
        <source>&lt;b&gt;Ask the class:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Hỏi cả lớp:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Guess first:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Dự đoán trước:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>3 requests arrive in the same millisecond. How many members will the ZSET hold?</source>
        <translation>3 request đến trong cùng một millisecond. ZSET sẽ có bao nhiêu member?</translation>
    </message>
    <message>
        <source>30 requests over 3 connections at once, all in one millisecond. How many members will the ZSET hold?</source>
        <translation>30 request qua 3 kết nối cùng lúc, tất cả trong một millisecond. ZSET sẽ có bao nhiêu member?</translation>
    </message>
    <message>
        <source>Limit 5: 20 requests arrive in one millisecond. How many will the limiter admit?</source>
        <translation>Giới hạn 5: 20 request đến trong một millisecond. Rate limiter sẽ cho qua bao nhiêu request?</translation>
    </message>
    <message>
        <source>The same 20 requests and limit 5, each with a request id of its own. How many will the limiter admit now?</source>
        <translation>Vẫn 20 request đó với giới hạn 5, nhưng mỗi request có một request id riêng. Lần này rate limiter sẽ cho qua bao nhiêu request?</translation>
    </message>
    <message>
        <source>100 requests in one millisecond, member = now .. &apos;-&apos; .. math.random(). How many members will the ZSET hold on this server?</source>
        <translation>100 request trong một millisecond, member = now .. &apos;-&apos; .. math.random(). Trên server này, ZSET sẽ có bao nhiêu member?</translation>
    </message>
    <message>
        <source>The script ends with EXPIRE key 1000 for a 1000 ms window. How long will an idle key stay?</source>
        <translation>Script kết thúc bằng EXPIRE key 1000 cho window 1000 ms. Một key không còn dùng đến sẽ tồn tại bao lâu?</translation>
    </message>
    <message>
        <source>about 1 second</source>
        <translation>khoảng 1 giây</translation>
    </message>
    <message>
        <source>about 17 minutes</source>
        <translation>khoảng 17 phút</translation>
    </message>
    <message numerus="yes">
        <source>%1: %L2 sent, %L3 stored, %Ln member(s) in the ZSET</source>
        <translation>
            <numerusform>%1: đã gửi %L2, lưu được %L3, ZSET có %Ln member</numerusform>
        </translation>
    </message>
    <message>
        <source> (measured on the first %L1: each member costs about the same)</source>
        <translation> (đo trên %L1 request đầu: mỗi member tốn gần như nhau)</translation>
    </message>
    <message>
        <source>The price of the fix</source>
        <translation>Cái giá của cách sửa</translation>
    </message>
    <message>
        <source>Measure the memory per user</source>
        <translation>Đo bộ nhớ cho mỗi người dùng</translation>
    </message>
    <message>
        <source>At your window and rate, how many entries will one user&apos;s sliding log keep?</source>
        <translation>Với window và tốc độ của bạn, sliding log của một người dùng sẽ giữ bao nhiêu phần tử?</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Thất bại: %1</translation>
    </message>
    <message>
        <source>the script</source>
        <translation>script</translation>
    </message>
    <message>
        <source>the timeline</source>
        <translation>dòng thời gian</translation>
    </message>
    <message>
        <source>the figures</source>
        <translation>các con số</translation>
    </message>
    <message>
        <source>the counts chart</source>
        <translation>biểu đồ số đếm</translation>
    </message>
    <message>
        <source>both runs</source>
        <translation>cả hai lượt chạy</translation>
    </message>
    <message>
        <source>the ZSET table</source>
        <translation>bảng ZSET</translation>
    </message>
    <message>
        <source>the key&apos;s TTL against the window</source>
        <translation>TTL của key so với window</translation>
    </message>
    <message>
        <source>the memory per user of each algorithm</source>
        <translation>bộ nhớ cho mỗi người dùng của từng thuật toán</translation>
    </message>
    <message>
        <source>&lt;p&gt;This lesson is about a script from an article on rate limiting with Redis (&quot;the article&quot; from here on). It keeps one sorted set per client, and each request runs it once, atomically:&lt;/p&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;Remove&lt;/b&gt; the entries older than the window (ZREMRANGEBYSCORE).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Add&lt;/b&gt; this request: score = its time, member = its identity (ZADD).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Count&lt;/b&gt; the entries (ZCARD): more than the limit means refuse.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Expire&lt;/b&gt; the key when the client goes quiet (EXPIRE).&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;The question of this lesson: what is the identity of a request?&lt;/p&gt;</source>
        <translation>&lt;p&gt;Bài học này nói về một script trong một bài viết về rate limiting với Redis (từ đây gọi là &quot;bài viết&quot;). Script giữ một sorted set cho mỗi client, và mỗi request chạy nó một lần, một cách atomic:&lt;/p&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;Xoá&lt;/b&gt; các phần tử cũ hơn window (ZREMRANGEBYSCORE).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Thêm&lt;/b&gt; request này vào: score = thời điểm của nó, member = định danh của nó (ZADD).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Đếm&lt;/b&gt; số phần tử (ZCARD): nhiều hơn giới hạn thì từ chối.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Đặt hạn&lt;/b&gt; cho key để nó tự biến mất khi client ngừng gửi (EXPIRE).&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;Câu hỏi của bài học này: định danh của một request là gì?&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The script is shown with its four steps marked: remove, add, count, expire. Look at step 2, the ZADD: its member is &lt;code&gt;now&lt;/code&gt;, the request&apos;s millisecond.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Script được hiển thị với bốn bước được đánh dấu: xoá, thêm, đếm, đặt hạn. Hãy nhìn bước 2, lệnh ZADD: member của nó là &lt;code&gt;now&lt;/code&gt;, tức millisecond của request.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>lua/now.lua is shown: its four steps are marked.</source>
        <translation>Đang hiển thị lua/now.lua: bốn bước của nó được đánh dấu.</translation>
    </message>
    <message>
        <source>&lt;p&gt;The article&apos;s script uses the timestamp as the member: &lt;code&gt;ZADD key now now&lt;/code&gt;. Three requests arrive in the same millisecond, as a burst easily does.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Script của bài viết dùng timestamp làm member: &lt;code&gt;ZADD key now now&lt;/code&gt;. Ba request đến trong cùng một millisecond, chuyện rất dễ xảy ra khi có burst.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;On the timeline, the millisecond holds one filled square, the request that made the member, and two hollow diamonds: requests whose ZADD replied 0 because the member was there already.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Trên dòng thời gian, millisecond đó có một hình vuông đặc, là request đã tạo ra member, và hai hình thoi rỗng: các request mà ZADD trả về 0 vì member đã có sẵn.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Who wrote that member?</source>
        <translation>Ai đã ghi vào member đó?</translation>
    </message>
    <message>
        <source>&lt;p&gt;A ZSET holds each member once. ZADD of a member that already exists adds no second entry: it updates the score and replies &lt;b&gt;0&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;The three requests carried the same &lt;code&gt;now&lt;/code&gt;, so they were the same member: the ZSET table shows it once, with the writes of all three.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Trong một ZSET, mỗi member chỉ có mặt một lần. ZADD một member đã tồn tại không thêm phần tử thứ hai: lệnh này chỉ cập nhật score và trả về &lt;b&gt;0&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;Ba request mang cùng một giá trị &lt;code&gt;now&lt;/code&gt;, nên chúng là cùng một member: bảng ZSET chỉ có nó một lần, với số lần ghi của cả ba.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Is it a race?</source>
        <translation>Có phải race condition?</translation>
    </message>
    <message>
        <source>&lt;p&gt;Maybe the clients raced each other? Send the burst over three connections at once: 30 requests, all in the same millisecond.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Phải chăng các client tranh nhau (race)? Hãy gửi burst qua ba kết nối cùng lúc: 30 request, tất cả trong cùng một millisecond.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The script is atomic: Redis runs one call at a time, in order, and no call sees another half done. The figures say what one connection said: no race happened. The data collided, not the threads: atomic is not correct.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Script chạy atomic: Redis thực thi lần lượt từng lệnh gọi, theo thứ tự, và không lệnh gọi nào thấy lệnh khác đang làm dở. Các con số nói đúng điều một kết nối đã nói: không có race nào. Dữ liệu va nhau, không phải các luồng: atomic không có nghĩa là đúng.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>A limit of 5</source>
        <translation>Giới hạn 5</translation>
    </message>
    <message>
        <source>&lt;p&gt;Now the limiter has a job: at most 5 requests per window. Send 20 requests in one millisecond.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Giờ limiter có việc để làm: tối đa 5 request mỗi window. Hãy gửi 20 request trong một millisecond.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The count the script returns never passes 1, so every request is admitted: the burst goes through. The counts chart shows the gap: the true number in the window climbs to 20 while the returned count stays flat, and each mark on the limit line is a request admitted beyond the limit.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Số đếm mà script trả về không bao giờ vượt quá 1, nên request nào cũng được chấp nhận: cả burst lọt qua. Biểu đồ số đếm cho thấy khoảng hở: số thật trong window tăng lên 20 trong khi số đếm trả về đứng yên, và mỗi dấu trên đường giới hạn là một request được chấp nhận vượt giới hạn.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Keep the time as the &lt;i&gt;score&lt;/i&gt; (it orders and trims the window) and give each request a member of its own: an id the caller sends (&lt;code&gt;ZADD key now request_id&lt;/code&gt;).&lt;/p&gt;&lt;p&gt;The same 20 timestamps and limit 5 run twice, side by side: left with member = now, right with a request id.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Giữ thời gian làm &lt;i&gt;score&lt;/i&gt; (để sắp xếp và cắt window) và cho mỗi request một member riêng: một id do bên gọi gửi lên (&lt;code&gt;ZADD key now request_id&lt;/code&gt;).&lt;/p&gt;&lt;p&gt;Cùng 20 timestamp và giới hạn 5 chạy hai lần, cạnh nhau: bên trái với member = now, bên phải với request id.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;With a member of its own, each request is one entry: the count climbs 1, 2, 3, … and the limiter refuses from the sixth request on. Both runs show it: the same timestamps, only the member differs.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Với member riêng, mỗi request là một phần tử: số đếm tăng 1, 2, 3, … và limiter từ chối từ request thứ sáu trở đi. Cả hai lượt chạy cho thấy điều đó: cùng các timestamp, chỉ member là khác.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Compare on the same timestamps</source>
        <translation>So sánh trên cùng timestamp</translation>
    </message>
    <message>
        <source>Trap 1: math.random() in the member</source>
        <translation>Bẫy 1: math.random() trong member</translation>
    </message>
    <message>
        <source>&lt;p&gt;A common fix, the article&apos;s own, puts a random number beside the time: &lt;code&gt;member = now .. &apos;-&apos; .. math.random()&lt;/code&gt;. Send 100 requests in one millisecond with it.&lt;/p&gt;&lt;p&gt;Your server is %1.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Một cách sửa phổ biến, cũng là cách của bài viết, đặt một số ngẫu nhiên cạnh thời gian: &lt;code&gt;member = now .. &apos;-&apos; .. math.random()&lt;/code&gt;. Hãy gửi 100 request trong một millisecond với cách này.&lt;/p&gt;&lt;p&gt;Server của bạn là %1.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Send 100 requests with math.random()</source>
        <translation>Gửi 100 request dùng math.random()</translation>
    </message>
    <message>
        <source>Trap 2: microseconds in the member</source>
        <translation>Bẫy 2: microsecond trong member</translation>
    </message>
    <message>
        <source>&lt;p&gt;Lua writes a number into text with 14 significant digits: &lt;code&gt;&apos;req:&apos; .. 1710000000000123&lt;/code&gt; becomes &lt;code&gt;req:1.7100000000001e+15&lt;/code&gt;. Every request in the same 100 µs gets the same member: the timestamps differ, the members do not. The ZSET table shows the members whole.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Lua ghi một số thành chuỗi với 14 chữ số có nghĩa: &lt;code&gt;&apos;req:&apos; .. 1710000000000123&lt;/code&gt; trở thành &lt;code&gt;req:1.7100000000001e+15&lt;/code&gt;. Mọi request trong cùng 100 µs nhận cùng một member: các timestamp khác nhau, còn các member thì không. Bảng ZSET hiển thị trọn vẹn các member.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Send 300 requests in microseconds</source>
        <translation>Gửi 300 request tính bằng microsecond</translation>
    </message>
    <message>
        <source>Trap 3: how long does an idle key stay?</source>
        <translation>Bẫy 3: một key không dùng tồn tại bao lâu?</translation>
    </message>
    <message>
        <source>&lt;p&gt;The article&apos;s script ends with &lt;code&gt;EXPIRE key window&lt;/code&gt;, the window in milliseconds, so that the key of a client that goes quiet goes away. Send one request with a 1000 ms window and read the key&apos;s TTL.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Script của bài viết kết thúc bằng &lt;code&gt;EXPIRE key window&lt;/code&gt;, với window tính bằng millisecond, để key của client ngừng gửi tự biến mất. Hãy gửi một request với window 1000 ms và đọc TTL của key.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;EXPIRE takes seconds: a 1000 ms window keeps an idle key for 1000 s, a 60000 ms window for 16.7 hours. The chart sets the key&apos;s TTL against the window. The count stays right (ZREMRANGEBYSCORE trims), but idle keys linger and use memory. PEXPIRE takes milliseconds.&lt;/p&gt;</source>
        <translation>&lt;p&gt;EXPIRE nhận giây: window 1000 ms giữ một key không dùng trong 1000 s, window 60000 ms giữ trong 16,7 giờ. Biểu đồ đặt TTL của key so với window. Số đếm vẫn đúng (ZREMRANGEBYSCORE có cắt bớt), nhưng các key không dùng nằm lại lâu và tốn bộ nhớ. PEXPIRE mới nhận millisecond.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1: window %L2 ms, TTL of the key %L3 s: %L4 times longer than the window</source>
        <translation>%1: window %L2 ms, TTL của key %L3 s: dài gấp %L4 lần window</translation>
    </message>
    <message>
        <source>&lt;p&gt;The unique member keeps the count exact. What does it cost? At your window of %L1 ms and rate of %2 requests per ms, the action fires one user&apos;s full window in one millisecond%3 at the sliding log and at four cheaper algorithms on the real server, and reads each key&apos;s MEMORY USAGE.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Member duy nhất giữ cho số đếm chính xác. Cái giá là bao nhiêu? Với window %L1 ms và tốc độ %2 request mỗi ms của bạn, thao tác này bắn trọn một window của một người dùng trong một millisecond%3 vào sliding log và bốn thuật toán rẻ hơn trên server thật, rồi đọc MEMORY USAGE của từng key.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The sliding log keeps one member per admitted request in the window, for every user: the chart shows the memory per user of each algorithm. The cheaper ones give up exactness: &lt;b&gt;fixed-window&lt;/b&gt; lets up to twice the limit through across a window boundary, &lt;b&gt;sliding-counter&lt;/b&gt; estimates, &lt;b&gt;token-bucket&lt;/b&gt; and &lt;b&gt;gcra&lt;/b&gt; limit a rate, not a count in the window.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Sliding log giữ một member cho mỗi request được chấp nhận trong window, với mọi người dùng: biểu đồ cho thấy bộ nhớ cho mỗi người dùng của từng thuật toán. Các thuật toán rẻ hơn đánh đổi độ chính xác: &lt;b&gt;fixed-window&lt;/b&gt; để lọt tới gấp đôi giới hạn qua ranh giới window, &lt;b&gt;sliding-counter&lt;/b&gt; chỉ ước lượng, &lt;b&gt;token-bucket&lt;/b&gt; và &lt;b&gt;gcra&lt;/b&gt; giới hạn tốc độ, không đếm trong window.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>sliding-log: %L1 members, %L2 bytes per user (about %L3 bytes a member)</source>
        <translation>sliding-log: %L1 member, %L2 byte cho mỗi người dùng (khoảng %L3 byte một member)</translation>
    </message>
    <message>
        <source>%1; the cheaper ones: %L2 to %L3 bytes</source>
        <translation>%1; các thuật toán rẻ hơn: %L2 đến %L3 byte</translation>
    </message>
    <message>
        <source>&lt;p&gt;Redis 2.6 to 6.2 reseed Lua&apos;s generator with one seed at every script call: the first &lt;code&gt;math.random()&lt;/code&gt; of each call is 0.17082803611217, and the fix collides there. Redis 7 keeps one generator running. The ZSET table shows the members this server made.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Redis 2.6 đến 6.2 reseed bộ sinh số của Lua bằng một seed ở mỗi lần gọi script: &lt;code&gt;math.random()&lt;/code&gt; đầu tiên của mỗi lần gọi luôn là 0.17082803611217, và cách sửa va nhau trên các bản đó. Redis 7 giữ một bộ sinh số chạy liên tục. Bảng ZSET cho thấy các member mà server này đã tạo.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>: %1 does not reseed per call</source>
        <translation>: %1 không reseed ở mỗi lần gọi</translation>
    </message>
    <message>
        <source>&lt;p&gt;Step 2&apos;s burst in one millisecond left one member in the ZSET. The action sends that burst again, looks the member up and counts the requests that wrote it.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Đợt burst trong một mili giây ở bước 2 để lại một member trong ZSET. Thao tác này gửi lại đợt burst đó, tìm member ấy và đếm số request đã ghi nó.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1: member %2 was written by %3 request(s)</source>
        <translation>%1: member %2 được ghi bởi %3 request</translation>
    </message>
    <message>
        <source>Step 2&apos;s burst left one member in the ZSET. How many requests wrote it?</source>
        <translation>Đợt burst ở bước 2 để lại một member trong ZSET. Có bao nhiêu request đã ghi nó?</translation>
    </message>
    <message>
        <source>&lt;p&gt;&quot;Milliseconds collide, so use microseconds&quot;: lua/microseconds.lua makes the member as text, &lt;code&gt;&apos;req:&apos; .. now&lt;/code&gt;, with &lt;code&gt;now&lt;/code&gt; in microseconds. The burst sends 300 requests, each at a microsecond of its own, all within one millisecond.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&quot;Mili giây thì trùng, vậy dùng micro giây&quot;: lua/microseconds.lua tạo member dạng chuỗi, &lt;code&gt;&apos;req:&apos; .. now&lt;/code&gt;, với &lt;code&gt;now&lt;/code&gt; tính bằng micro giây. Đợt burst gửi 300 request, mỗi request ở một micro giây riêng, tất cả trong cùng một mili giây.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>300 requests, 300 different microsecond timestamps, each in its request&apos;s member. How many members will the ZSET hold?</source>
        <translation>300 request, 300 timestamp micro giây khác nhau, mỗi timestamp nằm trong member của request đó. ZSET sẽ có bao nhiêu member?</translation>
    </message>
    <message>
        <source>about 1 minute</source>
        <translation>khoảng 1 phút</translation>
    </message>
    <message>
        <source>about 17 hours</source>
        <translation>khoảng 17 giờ</translation>
    </message>
</context>
<context>
    <name>LessonPlace</name>
    <message>
        <source>Lesson</source>
        <translation>Bài học</translation>
    </message>
</context>
<context>
    <name>LessonStage</name>
    <message>
        <source>zsetlab lesson</source>
        <translation>bài học zsetlab</translation>
    </message>
    <message>
        <source>Back (PgUp)</source>
        <translation>Lùi (PgUp)</translation>
    </message>
    <message>
        <source>Next (PgDn)</source>
        <translation>Tiếp (PgDn)</translation>
    </message>
    <message>
        <source>&amp;Guess:</source>
        <translation>&amp;Dự đoán:</translation>
    </message>
    <message>
        <source>The class&apos;s guess</source>
        <translation>Dự đoán của lớp</translation>
    </message>
    <message>
        <source>Play (Enter)</source>
        <translation>Chạy (Enter)</translation>
    </message>
    <message>
        <source>◀ Request</source>
        <translation>◀ Request</translation>
    </message>
    <message>
        <source>The request before (Left)</source>
        <translation>Request trước (Trái)</translation>
    </message>
    <message>
        <source>Request ▶</source>
        <translation>Request ▶</translation>
    </message>
    <message>
        <source>The next request (Right)</source>
        <translation>Request sau (Phải)</translation>
    </message>
    <message>
        <source>Workbench (Esc)</source>
        <translation>Bàn làm việc (Esc)</translation>
    </message>
    <message>
        <source>really in the window</source>
        <translation>thật sự trong window</translation>
    </message>
    <message>
        <source>counted by the script</source>
        <translation>script đếm được</translation>
    </message>
    <message>
        <source>limit %L1</source>
        <translation>giới hạn %L1</translation>
    </message>
    <message>
        <source>new member (ZADD 1)</source>
        <translation>member mới (ZADD 1)</translation>
    </message>
    <message>
        <source>overwrote one (ZADD 0)</source>
        <translation>ghi đè member cũ (ZADD 0)</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>bị từ chối</translation>
    </message>
    <message>
        <source>admitted beyond the limit</source>
        <translation>cho qua vượt giới hạn</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>request</translation>
    </message>
    <message>
        <source>request, in the order sent</source>
        <translation>request, theo thứ tự gửi</translation>
    </message>
    <message>
        <source>member</source>
        <translation>member</translation>
    </message>
    <message>
        <source>score</source>
        <translation>score</translation>
    </message>
    <message>
        <source>written by</source>
        <translation>số lần ghi</translation>
    </message>
    <message numerus="yes">
        <source>… and %Ln more member(s)</source>
        <translation>
            <numerusform>… và %Ln member nữa</numerusform>
        </translation>
    </message>
    <message>
        <source>How long an idle key stays, against the window</source>
        <translation>Một key không hoạt động tồn tại bao lâu, so với window</translation>
    </message>
    <message>
        <source>the window</source>
        <translation>window</translation>
    </message>
    <message>
        <source>%L1 s</source>
        <translation>%L1 giây</translation>
    </message>
    <message>
        <source>the key&apos;s TTL</source>
        <translation>TTL của key</translation>
    </message>
    <message>
        <source>Memory per user, bytes</source>
        <translation>Bộ nhớ cho mỗi người dùng, byte</translation>
    </message>
    <message>
        <source>lua/now.lua, the article&apos;s script</source>
        <translation>lua/now.lua, script của bài viết</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>Bước %1/%2</translation>
    </message>
    <message>
        <source>Class&apos;s guess: %L1</source>
        <translation>Lớp đoán: %L1</translation>
    </message>
    <message>
        <source>Class&apos;s guess: type a number</source>
        <translation>Lớp đoán: gõ một số</translation>
    </message>
    <message>
        <source>Redis is answering…</source>
        <translation>Redis đang trả lời…</translation>
    </message>
    <message>
        <source>Press Enter: %1</source>
        <translation>Nhấn Enter: %1</translation>
    </message>
    <message>
        <source>%1: failed</source>
        <translation>%1: lỗi</translation>
    </message>
    <message>
        <source>%1: counted %L2, %3</source>
        <translation>%1: đếm được %L2, %3</translation>
    </message>
    <message>
        <source>admitted</source>
        <translation>cho qua</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>lỗi</translation>
    </message>
    <message>
        <source>ZADD replied 1 (a new member)</source>
        <translation>ZADD trả về 1 (member mới)</translation>
    </message>
    <message>
        <source>ZADD replied 0 (it overwrote a member)</source>
        <translation>ZADD trả về 0 (ghi đè một member)</translation>
    </message>
    <message>
        <source>ZADD&apos;s reply unknown</source>
        <translation>không rõ ZADD trả về gì</translation>
    </message>
    <message>
        <source>%1; the script counted %L2, really in the window %L3: %4</source>
        <translation>%1; script đếm được %L2, thật sự trong window %L3: %4</translation>
    </message>
    <message>
        <source>Request %1 of %2</source>
        <translation>Request %1/%2</translation>
    </message>
    <message>
        <source>%1: member %2 (now = %3); %4</source>
        <translation>%1: member %2 (now = %3); %4</translation>
    </message>
    <message>
        <source>, %L1 really in the window</source>
        <translation>, %L1 thật sự trong window</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>member(s) in the ZSET</source>
        <translation>
            <numerusform>member trong ZSET</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>request(s) sent</source>
        <translation>
            <numerusform>request đã gửi</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>connection(s)</source>
        <translation>
            <numerusform>kết nối</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>request(s) wrote it</source>
        <translation>
            <numerusform>request đã ghi nó</numerusform>
        </translation>
    </message>
    <message>
        <source>different timestamps</source>
        <translation>timestamp khác nhau</translation>
    </message>
    <message>
        <source>entries in one user&apos;s log</source>
        <translation>mục trong log của một người dùng</translation>
    </message>
    <message>
        <source>bytes per user</source>
        <translation>byte mỗi người dùng</translation>
    </message>
    <message>
        <source>ms since the first request</source>
        <translation>ms kể từ request đầu tiên</translation>
    </message>
    <message>
        <source>requests in the millisecond</source>
        <translation>request trong millisecond đó</translation>
    </message>
</context>
<context>
    <name>LimiterCatalog</name>
    <message>
        <source>now</source>
        <translation>now</translation>
    </message>
    <message>
        <source>ZADD key now now: the timestamp is the member, so requests in the same millisecond overwrite one entry.</source>
        <translation>ZADD key now now: timestamp chính là member, nên các request trong cùng một millisecond ghi đè lên cùng một phần tử.</translation>
    </message>
    <message>
        <source>request id</source>
        <translation>id của request</translation>
    </message>
    <message>
        <source>An id the caller sends with each request is the member.</source>
        <translation>Member là một id mà phía gọi gửi kèm theo mỗi request.</translation>
    </message>
    <message>
        <source>random</source>
        <translation>ngẫu nhiên</translation>
    </message>
    <message>
        <source>now .. &apos;-&apos; .. math.random(): unique on Redis 7, colliding on 2.6 to 6.2, which reseed Lua&apos;s generator at every call.</source>
        <translation>now .. &apos;-&apos; .. math.random(): duy nhất trên Redis 7, nhưng bị trùng trên Redis 2.6 đến 6.2, vốn seed lại bộ sinh số của Lua ở mỗi lần gọi.</translation>
    </message>
    <message>
        <source>sequence</source>
        <translation>số thứ tự</translation>
    </message>
    <message>
        <source>now .. &apos;-&apos; .. a counter that Redis increments (INCR of a second key beside the ZSET).</source>
        <translation>now .. &apos;-&apos; .. một bộ đếm do Redis tăng dần (INCR trên một key thứ hai nằm cạnh ZSET).</translation>
    </message>
    <message>
        <source>microseconds in text</source>
        <translation>microsecond trong chuỗi</translation>
    </message>
    <message>
        <source>&apos;req:&apos; .. now in microseconds: Lua writes the number with 14 digits, so every request in the same 100 µs gets the same member.</source>
        <translation>&apos;req:&apos; .. now tính bằng microsecond: Lua viết số này với 14 chữ số, nên mọi request trong cùng 100 µs đều nhận cùng một member.</translation>
    </message>
    <message>
        <source>Your script, called as KEYS %1 ARGV %2.</source>
        <translation>Script của bạn, được gọi với KEYS %1 ARGV %2.</translation>
    </message>
    <message>
        <source>Your script, called as zsetlab&apos;s scripts are.</source>
        <translation>Script của bạn, được gọi giống như các script của zsetlab.</translation>
    </message>
    <message>
        <source>Cannot read the script&apos;s reply %1 as %2.</source>
        <translation>Không đọc được phản hồi %1 của script dưới dạng %2.</translation>
    </message>
    <message>
        <source>fixed window</source>
        <translation>cửa sổ cố định</translation>
    </message>
    <message>
        <source>INCR of one counter per window, PEXPIRE: one integer, but twice the limit gets through across a window&apos;s boundary.</source>
        <translation>INCR một bộ đếm cho mỗi cửa sổ, rồi PEXPIRE: chỉ một số nguyên, nhưng gấp đôi limit lọt qua ở ranh giới giữa hai cửa sổ.</translation>
    </message>
    <message>
        <source>sliding log</source>
        <translation>sliding log</translation>
    </message>
    <message>
        <source>A ZSET member per admitted request, unique by its request id: exact, and one member per request in the window.</source>
        <translation>Mỗi request được nhận là một member ZSET, duy nhất nhờ request id: chính xác, và tốn một member cho mỗi request trong cửa sổ.</translation>
    </message>
    <message>
        <source>sliding log, member = now</source>
        <translation>sliding log, member = now</translation>
    </message>
    <message>
        <source>The sliding log with the timestamp as the member: requests in one millisecond share a member and all get through.</source>
        <translation>Sliding log dùng timestamp làm member: các request trong cùng một millisecond chung một member và đều lọt qua hết.</translation>
    </message>
    <message>
        <source>sliding window counter</source>
        <translation>bộ đếm cửa sổ trượt</translation>
    </message>
    <message>
        <source>Two fixed-window counts in a hash, the previous one weighted by how much of it the window still covers: an estimate.</source>
        <translation>Hai bộ đếm cửa sổ cố định trong một hash, bộ đếm trước được nhân theo phần cửa sổ trượt còn phủ lên nó: một ước lượng.</translation>
    </message>
    <message>
        <source>token bucket</source>
        <translation>token bucket</translation>
    </message>
    <message>
        <source>A bucket of limit tokens in a hash, refilled at limit per window: a burst of limit, then the refill rate.</source>
        <translation>Một thùng chứa limit token trong một hash, được nạp lại limit token mỗi cửa sổ: cho qua một burst bằng limit, rồi theo tốc độ nạp lại.</translation>
    </message>
    <message>
        <source>GCRA</source>
        <translation>GCRA</translation>
    </message>
    <message>
        <source>One theoretical arrival time per client: requests window / limit apart, with a burst of limit allowed.</source>
        <translation>Mỗi client một thời điểm đến lý thuyết: các request cách nhau window / limit, cho phép một burst bằng limit.</translation>
    </message>
    <message>
        <source>list log</source>
        <translation>list log</translation>
    </message>
    <message>
        <source>LPUSH + LTRIM of the newest limit admitted times in a LIST: exact, with memory bounded by the limit.</source>
        <translation>LPUSH + LTRIM giữ limit thời điểm được nhận mới nhất trong một LIST: chính xác, bộ nhớ bị chặn bởi limit.</translation>
    </message>
</context>
<context>
    <name>LimiterExperiment</name>
    <message>
        <source>A burst is running: stop it first.</source>
        <translation>Đang có một burst chạy: hãy dừng nó trước.</translation>
    </message>
</context>
<context>
    <name>LimiterReply</name>
    <message>
        <source>Cannot read the script&apos;s reply %1: expected {count, added, member} or a count.</source>
        <translation>Không đọc được phản hồi %1 của script: cần có dạng {count, added, member} hoặc một count.</translation>
    </message>
    <message>
        <source>Cannot read the script&apos;s reply %1: expected {allowed, count} with allowed 1 or 0.</source>
        <translation>Không đọc được phản hồi %1 của script: cần có dạng {allowed, count} với allowed là 1 hoặc 0.</translation>
    </message>
</context>
<context>
    <name>LimiterScript</name>
    <message>
        <source>Cannot read the script %1: %2.</source>
        <translation>Không đọc được script %1: %2.</translation>
    </message>
    <message>
        <source>The script %1 is empty.</source>
        <translation>Script %1 đang trống.</translation>
    </message>
    <message>
        <source>Lua error at line %1: %2</source>
        <translation>Lỗi Lua ở dòng %1: %2</translation>
    </message>
    <message>
        <source>Lua error: %1</source>
        <translation>Lỗi Lua: %1</translation>
    </message>
    <message>
        <source>The script %1 does not compile. %2</source>
        <translation>Script %1 không biên dịch được. %2</translation>
    </message>
    <message>
        <source>No reply: %1.</source>
        <translation>Không có phản hồi: %1.</translation>
    </message>
    <message>
        <source>The key %1 holds a value that is not a sorted set (WRONGTYPE). zsetlab leaves it as it is: choose another key, or delete that one yourself if it is yours.</source>
        <translation>Key %1 đang chứa một giá trị không phải sorted set (WRONGTYPE). zsetlab không động vào key đó: hãy chọn một key khác, hoặc tự xoá key đó nếu nó là của bạn.</translation>
    </message>
    <message>
        <source>The server is out of memory (maxmemory reached, OOM): %1</source>
        <translation>Server đã hết bộ nhớ (chạm mức maxmemory, OOM): %1</translation>
    </message>
    <message>
        <source>The server does not have the script loaded (NOSCRIPT) and reloading it failed.</source>
        <translation>Server chưa nạp script này (NOSCRIPT) và việc nạp lại cũng thất bại.</translation>
    </message>
    <message>
        <source>%1 holds more than %2 bytes: too large for a limiter script. Give the path of a Lua file.</source>
        <translation>%1 chứa hơn %2 byte: quá lớn đối với một script rate limiter. Hãy đưa đường dẫn của một tệp Lua.</translation>
    </message>
    <message>
        <source>On a Redis Cluster every key of one call must hash to one slot, and the keys of %1 do not (%2). Give them one hash tag, e.g. zsetlab:{limiter} and zsetlab:{limiter}:seq, or leave the key empty for a fresh one that has it.</source>
        <translation>Trên Redis Cluster, mọi key của một lệnh gọi phải băm vào cùng một slot, nhưng các key của %1 thì không (%2). Hãy cho chúng chung một hash tag, ví dụ zsetlab:{limiter} và zsetlab:{limiter}:seq, hoặc để trống key để dùng một key mới đã có sẵn hash tag.</translation>
    </message>
    <message>
        <source>On a Redis Cluster a script may touch only keys in the slot of the keys it is given, and this one, given %1, touched a key in another slot (%2). Pass every key the script uses in KEYS, with the hash tag of the first one (e.g. zsetlab:{limiter} and zsetlab:{limiter}:seq).</source>
        <translation>Trên Redis Cluster, một script chỉ được chạm vào các khóa cùng slot với các khóa nó được truyền vào; script này, được truyền %1, đã chạm vào một khóa ở slot khác (%2). Hãy truyền mọi khóa script dùng qua KEYS, với cùng hash tag của khóa đầu tiên (ví dụ zsetlab:{limiter} và zsetlab:{limiter}:seq).</translation>
    </message>
    <message>
        <source>The server refused to load the script %1 (SCRIPT LOAD): %2. That is the server&apos;s answer, not a fault of the script: a server whose SCRIPT command is renamed or disabled (rename-command), or an ACL user without +script|load, cannot run it.</source>
        <translation>Server từ chối nạp script %1 (SCRIPT LOAD): %2. Đó là câu trả lời của server, không phải lỗi của script: một server có lệnh SCRIPT bị đổi tên hoặc vô hiệu hoá (rename-command), hoặc một người dùng ACL không có +script|load, thì không chạy được nó.</translation>
    </message>
    <message>
        <source>The server refused to load the library %1 (FUNCTION LOAD): %2.</source>
        <translation>Server từ chối nạp thư viện %1 (FUNCTION LOAD): %2.</translation>
    </message>
</context>
<context>
    <name>LimiterStore</name>
    <message>
        <source>The key %1 already holds a %2, where this limiter keeps a %3. zsetlab leaves it as it is: choose another key.</source>
        <translation>Key %1 đang chứa một %2, trong khi rate limiter này lưu một %3 ở đó. zsetlab để nguyên key đó: hãy chọn key khác.</translation>
    </message>
    <message>
        <source>Cannot check the key %1 before writing it: %2</source>
        <translation>Không kiểm tra được key %1 trước khi ghi vào nó: %2</translation>
    </message>
    <message>
        <source>The key %1 already exists (a %2) and this run did not create it. zsetlab leaves it as it is: choose another key, or allow the run to write into it (zsetlab-cli run --reuse-key).</source>
        <translation>Key %1 đã tồn tại (một %2) và lần chạy này không tạo ra nó. zsetlab để nguyên key đó: hãy chọn key khác, hoặc cho phép lần chạy ghi vào nó (zsetlab-cli run --reuse-key).</translation>
    </message>
    <message>
        <source>On a Redis Cluster every key of one call must hash to one slot (else CROSSSLOT), and %1 is in slot %2 while %3 is in slot %4. Give the key a hash tag, e.g. --key &apos;{limiter}&apos; (zsetlab:{limiter} and zsetlab:{limiter}:seq share a slot), or leave it empty for a fresh one that has one.</source>
        <translation>Trên Redis Cluster, mọi key của một lệnh gọi phải băm vào cùng một slot (nếu không sẽ gặp CROSSSLOT), nhưng %1 nằm ở slot %2 còn %3 nằm ở slot %4. Hãy cho key một hash tag, ví dụ --key &apos;{limiter}&apos; (zsetlab:{limiter} và zsetlab:{limiter}:seq chung một slot), hoặc để trống để dùng một key mới đã có hash tag.</translation>
    </message>
    <message>
        <source>%1 is not under zsetlab&apos;s prefix</source>
        <translation>%1 không nằm dưới tiền tố của zsetlab</translation>
    </message>
    <message>
        <source>zsetlab cannot claim the key %1 on a Redis Cluster: its braces make no hash tag. Choose a name with a hash tag, e.g. --key &apos;{limiter}&apos;, or without braces.</source>
        <translation>zsetlab không thể giữ key %1 trên Redis Cluster: cặp ngoặc nhọn của nó không tạo thành hash tag. Hãy chọn tên có hash tag, ví dụ --key &apos;{limiter}&apos;, hoặc không có ngoặc nhọn.</translation>
    </message>
    <message>
        <source>Cannot claim the key %1 for this run (SET %2 NX): %3. zsetlab writes no key it cannot claim.</source>
        <translation>Không giữ được key %1 cho lần chạy này (SET %2 NX): %3. zsetlab không ghi key nào mà nó không giữ được.</translation>
    </message>
    <message>
        <source>Another zsetlab run (%1) is writing the key %2 now: two runs never share a key. Wait for it to end, or choose another key. If no run is using it, its claim %3 expires in %4 s, or delete it: redis-cli DEL &apos;%3&apos;.</source>
        <translation>Một lần chạy zsetlab khác (%1) đang ghi key %2: hai lần chạy không bao giờ dùng chung một key. Hãy chờ nó kết thúc, hoặc chọn key khác. Nếu không lần chạy nào dùng nó, dấu giữ chỗ %3 hết hạn sau %4 s, hoặc xoá nó: redis-cli DEL &apos;%3&apos;.</translation>
    </message>
</context>
<context>
    <name>LuaSyntax</name>
    <message>
        <source>this is precompiled Lua bytecode, not Lua source; Redis runs only source</source>
        <translation>đây là Lua bytecode đã biên dịch sẵn, không phải mã nguồn Lua; Redis chỉ chạy mã nguồn</translation>
    </message>
    <message>
        <source>out of memory while compiling</source>
        <translation>hết bộ nhớ trong khi biên dịch</translation>
    </message>
</context>
<context>
    <name>MainMenus</name>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Tệp</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Thoát</translation>
    </message>
    <message>
        <source>&amp;Burst</source>
        <translation>&amp;Burst</translation>
    </message>
    <message>
        <source>&amp;Fire</source>
        <translation>&amp;Bắn</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Dừng</translation>
    </message>
    <message>
        <source>&amp;Reset</source>
        <translation>Đặt &amp;lại</translation>
    </message>
    <message>
        <source>&amp;Connect to Redis…</source>
        <translation>&amp;Kết nối tới Redis…</translation>
    </message>
    <message>
        <source>Script &amp;Doctor…</source>
        <translation>Bác &amp;sĩ script…</translation>
    </message>
    <message>
        <source>S&amp;tep Through the Next Request…</source>
        <translation>Chạy &amp;từng bước request tiếp theo…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Xem</translation>
    </message>
    <message>
        <source>Show the Le&amp;sson</source>
        <translation>Hiện &amp;bài học</translation>
    </message>
    <message>
        <source>&amp;Compare Side by Side</source>
        <translation>&amp;So sánh song song</translation>
    </message>
    <message>
        <source>&amp;Fit Timeline</source>
        <translation>Hiện &amp;vừa dòng thời gian</translation>
    </message>
    <message>
        <source>Limiter &amp;Scripts Side by Side…</source>
        <translation>Các &amp;script limiter cạnh nhau…</translation>
    </message>
    <message>
        <source>Collision &amp;Curve and Servers…</source>
        <translation>Đường &amp;cong va chạm và server…</translation>
    </message>
    <message>
        <source>Compare Al&amp;gorithms…</source>
        <translation>So sánh thuật t&amp;oán…</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>&amp;Phóng to</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Th&amp;u nhỏ</translation>
    </message>
    <message>
        <source>&amp;Actual Size</source>
        <translation>Cỡ &amp;gốc</translation>
    </message>
    <message>
        <source>&amp;Presenter Mode</source>
        <translation>Chế độ t&amp;rình chiếu</translation>
    </message>
    <message>
        <source>Full screen with larger text, for a projector.</source>
        <translation>Toàn màn hình với chữ lớn hơn, dùng khi chiếu lên máy chiếu.</translation>
    </message>
    <message>
        <source>&amp;High Contrast</source>
        <translation>&amp;Tương phản cao</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Ngôn ngữ</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Trợ &amp;giúp</translation>
    </message>
    <message>
        <source>&amp;Manual</source>
        <translation>&amp;Hướng dẫn sử dụng</translation>
    </message>
    <message>
        <source>&amp;About zsetlab</source>
        <translation>&amp;Giới thiệu zsetlab</translation>
    </message>
    <message>
        <source>About zsetlab</source>
        <translation>Giới thiệu zsetlab</translation>
    </message>
    <message>
        <source>&lt;h3&gt;zsetlab %1&lt;/h3&gt;&lt;p&gt;Fire request bursts at a real Redis and watch a sliding-window rate limiter kept in a ZSET count wrong when the member is the timestamp.&lt;/p&gt;&lt;p&gt;Atomic is not correct: the script runs without races, yet requests in the same millisecond overwrite one member.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;zsetlab %1&lt;/h3&gt;&lt;p&gt;Bắn từng burst request vào một Redis thật và xem một rate limiter kiểu sliding window, lưu trong ZSET, đếm sai ra sao khi member là timestamp.&lt;/p&gt;&lt;p&gt;Atomic không có nghĩa là đúng: script chạy không có race condition, vậy mà các request trong cùng một millisecond vẫn ghi đè lên cùng một member.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Present the &amp;Lesson</source>
        <translation>Trình chiếu &amp;bài học</translation>
    </message>
    <message>
        <source>The lesson alone, full screen, one step at a time. Esc: back.</source>
        <translation>Chỉ bài học, toàn màn hình, từng bước một. Esc: quay lại.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Burst</source>
        <translation>Burst</translation>
    </message>
    <message>
        <source>ZSET contents</source>
        <translation>Nội dung ZSET</translation>
    </message>
    <message>
        <source>Connected: %1</source>
        <translation>Đã kết nối: %1</translation>
    </message>
    <message>
        <source>member = now</source>
        <translation>member = now</translation>
    </message>
    <message>
        <source>%1 member</source>
        <translation>member %1</translation>
    </message>
    <message numerus="yes">
        <source>Firing %Ln request(s)…</source>
        <translation>
            <numerusform>Đang bắn %Ln request…</numerusform>
        </translation>
    </message>
    <message>
        <source>Cleared; the burst&apos;s keys are deleted.</source>
        <translation>Đã dọn sạch; các key của burst đã bị xoá.</translation>
    </message>
    <message>
        <source>%1 — zsetlab</source>
        <translation>%1 — zsetlab</translation>
    </message>
    <message>
        <source>A new private Redis server took the place of the one that stopped; it starts empty.</source>
        <translation>Một server Redis riêng mới đã thay thế server vừa dừng; server mới bắt đầu với dữ liệu trống.</translation>
    </message>
    <message>
        <source>Lost the connection: zsetlab&apos;s private Redis server stopped. A new, empty one starts on the same socket and the burst goes on there.</source>
        <translation>Mất kết nối: server Redis riêng của zsetlab đã dừng. Một server mới, trống, khởi động trên cùng socket đó và burst tiếp tục chạy ở đó.</translation>
    </message>
    <message>
        <source>zsetlab&apos;s private Redis server stopped. A new, empty one took its place on the same socket and the burst goes on there.</source>
        <translation>Redis server riêng của zsetlab đã dừng. Một server mới, trống, đã thay chỗ nó trên cùng socket và burst tiếp tục ở đó.</translation>
    </message>
    <message>
        <source>Watch</source>
        <translation>Theo dõi</translation>
    </message>
    <message>
        <source>%1 (watched)</source>
        <translation>%1 (đang theo dõi)</translation>
    </message>
    <message>
        <source>Opened the replay %1: step through it with Left and Right, play it with Space.</source>
        <translation>Đã mở bản phát lại %1: đi từng bước bằng phím Trái và Phải, phát bằng phím Cách.</translation>
    </message>
    <message numerus="yes">
        <source>What if, from request %L1 on: firing %Ln request(s) with the same timestamps…</source>
        <translation>
            <numerusform>Nếu như, từ request %L1: đang bắn %Ln request với cùng timestamp…</numerusform>
        </translation>
    </message>
    <message>
        <source>The scenario&apos;s run does not read (%1): its plan is loaded; press F5 to fire it.</source>
        <translation>Không đọc được lần chạy của kịch bản (%1): kế hoạch của nó đã được nạp; nhấn F5 để bắn.</translation>
    </message>
    <message>
        <source>the scenario&apos;s run</source>
        <translation>lần chạy của kịch bản</translation>
    </message>
</context>
<context>
    <name>ManualDialog</name>
    <message>
        <source>zsetlab manual</source>
        <translation>Hướng dẫn sử dụng zsetlab</translation>
    </message>
</context>
<context>
    <name>MemoryHeadroom</name>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>INFO memory answered: %1</source>
        <translation>INFO memory trả lời: %1</translation>
    </message>
    <message>
        <source>INFO memory did not answer with text</source>
        <translation>INFO memory không trả lời bằng văn bản</translation>
    </message>
    <message>
        <source>INFO memory lacks maxmemory, maxmemory_policy or used_memory</source>
        <translation>INFO memory thiếu maxmemory, maxmemory_policy hoặc used_memory</translation>
    </message>
    <message>
        <source>unknown (%1)</source>
        <translation>không rõ (%1)</translation>
    </message>
    <message>
        <source>no maxmemory, %1 used</source>
        <translation>không đặt maxmemory, đã dùng %1</translation>
    </message>
    <message>
        <source>maxmemory %1, %2: %3 used, %4 left</source>
        <translation>maxmemory %1, %2: đã dùng %3, còn %4</translation>
    </message>
    <message>
        <source>zsetlab could not read whether %1 deletes keys to make room when it is full (%2), and a script of yours may write any amount in one call: a run there could push out keys zsetlab did not make. Give --allow-eviction (in the window: answer Yes to the question) to run it all the same.</source>
        <translation>zsetlab không đọc được %1 có xóa bớt key để lấy chỗ khi đầy hay không (%2), và script của bạn có thể ghi bao nhiêu cũng được trong một lệnh gọi: một lần chạy ở đó có thể đẩy ra các key mà zsetlab không tạo. Hãy thêm --allow-eviction (trong cửa sổ: trả lời Yes cho câu hỏi) để vẫn chạy.</translation>
    </message>
    <message>
        <source>keys with a TTL</source>
        <translation>các key có TTL</translation>
    </message>
    <message>
        <source>any key</source>
        <translation>bất kỳ key nào</translation>
    </message>
    <message>
        <source>%1 deletes %2 to make room when it is full (%3), and a script of yours may write any amount in one call: Redis would then evict keys zsetlab did not make before zsetlab could stop it. Give --allow-eviction (in the window: answer Yes to the question) to run it all the same: zsetlab then stops the run once the server has grown by half of what was left, and deletes the run&apos;s keys.</source>
        <translation>%1 xóa %2 để lấy chỗ khi đầy (%3), và script của bạn có thể ghi bao nhiêu cũng được trong một lệnh gọi: Redis sẽ đẩy ra các key mà zsetlab không tạo trước khi zsetlab kịp dừng nó. Hãy thêm --allow-eviction (trong cửa sổ: trả lời Yes cho câu hỏi) để vẫn chạy: khi đó zsetlab dừng lần chạy khi server đã tăng thêm một nửa phần còn trống, và xóa các key của lần chạy.</translation>
    </message>
    <message>
        <source>%1 deletes %2 to make room when it is full (%3), and this run may hold up to %4, more than half of what is left: Redis could evict keys zsetlab did not make. Free memory there, send fewer requests, or give --allow-eviction (in the window: answer Yes to the question).</source>
        <translation>%1 xóa %2 để lấy chỗ khi đầy (%3), và lần chạy này có thể giữ tới %4, hơn một nửa phần còn trống: Redis có thể đẩy ra các key mà zsetlab không tạo. Hãy giải phóng bộ nhớ ở đó, gửi ít request hơn, hoặc thêm --allow-eviction (trong cửa sổ: trả lời Yes cho câu hỏi).</translation>
    </message>
    <message>
        <source>Stopped: %1 grew from %2 to %3 used during the run, past half of the %4 it had left before (%5, which deletes keys to make room). zsetlab deleted the run&apos;s keys.</source>
        <translation>Đã dừng: %1 tăng từ %2 lên %3 đã dùng trong lúc chạy, quá một nửa của %4 còn trống trước đó (%5, có xóa bớt key để lấy chỗ). zsetlab đã xóa các key của lần chạy.</translation>
    </message>
    <message>
        <source>%1 did not answer INFO memory: %2</source>
        <translation>%1 không trả lời INFO memory: %2</translation>
    </message>
    <message>
        <source>%1 deletes keys to make room when it is full (%2), and zsetlab could not open the connection that watches the run&apos;s memory there: %3</source>
        <translation>%1 xóa bớt key để lấy chỗ khi đầy (%2), và zsetlab không mở được kết nối theo dõi bộ nhớ của lần chạy ở đó: %3</translation>
    </message>
</context>
<context>
    <name>MonitorLine</name>
    <message>
        <source>This is not a line of Redis&apos;s MONITOR output (it should start with a time such as 1710000000.123456 and a [db client] tag).</source>
        <translation>Đây không phải là một dòng đầu ra MONITOR của Redis (dòng phải bắt đầu bằng một thời điểm như 1710000000.123456 và một thẻ [db client]).</translation>
    </message>
    <message>
        <source>Argument %1 of the MONITOR line does not start with a quote at column %2: the line is cut off or not from MONITOR.</source>
        <translation>Đối số %1 của dòng MONITOR không bắt đầu bằng dấu ngoặc kép ở cột %2: dòng bị cắt cụt hoặc không đến từ MONITOR.</translation>
    </message>
    <message>
        <source>Argument %1 of the MONITOR line has a bad escape or no closing quote: the line is cut off or not from MONITOR.</source>
        <translation>Đối số %1 của dòng MONITOR có chuỗi thoát sai hoặc thiếu dấu ngoặc kép đóng: dòng bị cắt cụt hoặc không đến từ MONITOR.</translation>
    </message>
    <message>
        <source>Argument %1 of the MONITOR line is not followed by a space at column %2: the line is cut off or not from MONITOR.</source>
        <translation>Sau đối số %1 của dòng MONITOR không có dấu cách ở cột %2: dòng bị cắt cụt hoặc không đến từ MONITOR.</translation>
    </message>
    <message>
        <source>The MONITOR line names no command.</source>
        <translation>Dòng MONITOR không nêu lệnh nào.</translation>
    </message>
</context>
<context>
    <name>NodeConnections</name>
    <message>
        <source>The cluster has a master at %1, which is not on this machine: zsetlab does not write to a server elsewhere without consent.</source>
        <translation>Cluster có một master ở %1, không nằm trên máy này: zsetlab không ghi vào server ở nơi khác khi chưa được đồng ý.</translation>
    </message>
    <message>
        <source>The cluster&apos;s master %1: %2</source>
        <translation>Master %1 của cluster: %2</translation>
    </message>
    <message>
        <source>The cluster has no master serving slots: redis-cli --cluster fix repairs it.</source>
        <translation>Cluster không có master nào phục vụ slot: redis-cli --cluster fix sửa được.</translation>
    </message>
</context>
<context>
    <name>NumbersPanel</name>
    <message>
        <source>sent</source>
        <translation>đã gửi</translation>
    </message>
    <message>
        <source>Requests that got an answer (or an error) from Redis.</source>
        <translation>Số request đã nhận được phản hồi (hoặc lỗi) từ Redis.</translation>
    </message>
    <message>
        <source>stored</source>
        <translation>được lưu</translation>
    </message>
    <message>
        <source>Requests whose ZADD created a member of their own (ZADD replied 1).</source>
        <translation>Số request mà ZADD tạo được member riêng (ZADD trả về 1).</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>bị mất</translation>
    </message>
    <message>
        <source>Requests the limiter never counted: sent − errors − stored.</source>
        <translation>Số request mà rate limiter không hề đếm tới: đã gửi − lỗi − được lưu.</translation>
    </message>
    <message>
        <source>overwritten</source>
        <translation>bị ghi đè</translation>
    </message>
    <message>
        <source>Requests whose ZADD only updated an existing member (ZADD replied 0).</source>
        <translation>Số request mà ZADD chỉ cập nhật một member đã có sẵn (ZADD trả về 0).</translation>
    </message>
    <message>
        <source>beyond the limit</source>
        <translation>vượt giới hạn</translation>
    </message>
    <message>
        <source>Requests the limiter let through while the true number of requests in the window was already above the limit.</source>
        <translation>Số request mà rate limiter vẫn cho qua trong khi số request thật trong window đã vượt giới hạn.</translation>
    </message>
    <message>
        <source>lost (%1 %)</source>
        <translation>bị mất (%1 %)</translation>
    </message>
    <message>
        <source>No limit set: every request is admitted.</source>
        <translation>Chưa đặt giới hạn: mọi request đều được cho qua.</translation>
    </message>
    <message numerus="yes">
        <source> %n request(s) failed.</source>
        <translation>
            <numerusform> %n request bị lỗi.</numerusform>
        </translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>không rõ</translation>
    </message>
    <message>
        <source>The script&apos;s replies do not say whether ZADD added a member (it answers only a count).</source>
        <translation>Phản hồi của script không cho biết ZADD có thêm member hay không (script chỉ trả về count).</translation>
    </message>
    <message numerus="yes">
        <source>The script&apos;s replies do not say whether ZADD added a member (it answers only a count); the ZSET held %Ln member(s) when the burst ended.</source>
        <translation>
            <numerusform>Phản hồi của script không cho biết ZADD có thêm member hay không (script chỉ trả về count); khi burst kết thúc, ZSET có %Ln member.</numerusform>
        </translation>
    </message>
    <message>
        <source>zsetlab cannot know your app&apos;s limit (its script gets it as an argument): these figures count writes to the key, not refusals.</source>
        <translation>zsetlab không thể biết giới hạn của ứng dụng bạn (script nhận nó qua tham số): các con số này đếm các lần ghi vào key, không phải các lần từ chối.</translation>
    </message>
</context>
<context>
    <name>OutputFile</name>
    <message>
        <source>Could not write %1: %2.</source>
        <translation>Không ghi được %1: %2.</translation>
    </message>
    <message>
        <source>a named pipe (FIFO)</source>
        <translation>một named pipe (FIFO)</translation>
    </message>
    <message>
        <source>a device</source>
        <translation>một thiết bị</translation>
    </message>
    <message>
        <source>a socket</source>
        <translation>một socket</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>không phải tệp thường</translation>
    </message>
    <message>
        <source>Give the name of a file to write.</source>
        <translation>Hãy cho tên một tệp để ghi.</translation>
    </message>
    <message>
        <source>%1 is a symbolic link: zsetlab does not write through a link (it would replace the file the link points to). Give the path of a file, or a new name.</source>
        <translation>%1 là một liên kết tượng trưng: zsetlab không ghi qua liên kết (việc đó sẽ thay thế tệp mà liên kết trỏ tới). Hãy cho đường dẫn của một tệp, hoặc một tên mới.</translation>
    </message>
    <message>
        <source>%1 is a folder: give the name of a file in it.</source>
        <translation>%1 là một thư mục: hãy cho tên một tệp trong đó.</translation>
    </message>
    <message>
        <source>%1 is %2, not a regular file: zsetlab writes only over a regular file, or makes a new one. Give another name.</source>
        <translation>%1 là %2, không phải tệp thường: zsetlab chỉ ghi đè lên tệp thường, hoặc tạo tệp mới. Hãy chọn tên khác.</translation>
    </message>
    <message>
        <source>%1 may not be written (%2): choose a file you may write.</source>
        <translation>Không được ghi %1 (%2): hãy chọn một tệp bạn có quyền ghi.</translation>
    </message>
    <message>
        <source>The folder %1 does not exist: create it first, or choose another.</source>
        <translation>Thư mục %1 không tồn tại: hãy tạo nó trước, hoặc chọn thư mục khác.</translation>
    </message>
    <message>
        <source>The folder %1 may not be written (%2): choose a folder you may write to.</source>
        <translation>Không được ghi vào thư mục %1 (%2): hãy chọn một thư mục bạn có quyền ghi.</translation>
    </message>
    <message>
        <source>it could not be made</source>
        <translation>không tạo được nội dung của nó</translation>
    </message>
</context>
<context>
    <name>PictureExport</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Không ghi được %1: %2</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>Không ghi được %1.</translation>
    </message>
    <message>
        <source>Export Picture</source>
        <translation>Xuất hình ảnh</translation>
    </message>
</context>
<context>
    <name>PrintableText</name>
    <message>
        <source>… (cut: %L1 bytes in all)</source>
        <translation>… (bị cắt: tổng cộng %L1 byte)</translation>
    </message>
</context>
<context>
    <name>PrivateRedisCluster</name>
    <message>
        <source>Found no free pair of ports (port and port + 10000) on 127.0.0.1 for a cluster node.</source>
        <translation>Không tìm được cặp port trống (port và port + 10000) trên 127.0.0.1 cho một node của cluster.</translation>
    </message>
    <message>
        <source>redis-cli is not installed (not on PATH); it joins the nodes into a cluster. Install it (Debian: apt-get install redis-tools).</source>
        <translation>redis-cli chưa được cài (không có trên PATH); nó ghép các node thành cluster. Hãy cài nó (Debian: apt-get install redis-tools).</translation>
    </message>
    <message>
        <source>redis-cli %1 %2. It said:
%3</source>
        <translation>redis-cli %1 %2. Nó báo:
%3</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>thất bại</translation>
    </message>
    <message>
        <source>did not finish in time</source>
        <translation>không xong kịp thời gian</translation>
    </message>
    <message>
        <source>The private cluster did not become healthy in time (%1 of %2 nodes said cluster_state:ok).</source>
        <translation>Cluster riêng không sẵn sàng kịp thời gian (%1/%2 node báo cluster_state:ok).</translation>
    </message>
</context>
<context>
    <name>PrivateRedisServer</name>
    <message>
        <source>redis-server is not installed (not on PATH). Install it (Debian: apt-get install redis-server) or give the URL of a running server.</source>
        <translation>redis-server chưa được cài (không có trong PATH). Hãy cài nó (Debian: apt-get install redis-server) hoặc nhập URL của một server đang chạy.</translation>
    </message>
    <message>
        <source>Cannot create a private folder for redis-server in %1: %2</source>
        <translation>Không tạo được thư mục riêng cho redis-server trong %1: %2</translation>
    </message>
    <message>
        <source>Cannot make the private folder %1 again.</source>
        <translation>Không tạo lại được thư mục riêng %1.</translation>
    </message>
    <message>
        <source>Cannot run /bin/sh to start redis-server: %1</source>
        <translation>Không chạy được /bin/sh để khởi động redis-server: %1</translation>
    </message>
    <message>
        <source>The private redis-server did not start in time.</source>
        <translation>redis-server riêng không khởi động kịp.</translation>
    </message>
    <message>
        <source>The private redis-server did not start.</source>
        <translation>redis-server riêng không khởi động được.</translation>
    </message>
    <message>
        <source>Its log says:</source>
        <translation>Nhật ký của server ghi:</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Không ghi được %1: %2</translation>
    </message>
    <message>
        <source>Cannot make certificates for the private TLS server: %1</source>
        <translation>Không tạo được chứng chỉ cho máy chủ TLS riêng: %1</translation>
    </message>
    <message>
        <source>Found no free port on 127.0.0.1 for the private TLS server.</source>
        <translation>Không tìm được cổng trống trên 127.0.0.1 cho máy chủ TLS riêng.</translation>
    </message>
    <message>
        <source>Cannot write the private TLS server&apos;s certificates: %1</source>
        <translation>Không ghi được chứng chỉ của máy chủ TLS riêng: %1</translation>
    </message>
    <message>
        <source>ZSETLAB_REDIS_SERVER names %1, which is not a program here: give a path or a name on PATH, or unset it for redis-server.</source>
        <translation>ZSETLAB_REDIS_SERVER chỉ tới %1, không phải một chương trình có ở đây: hãy cho một đường dẫn hoặc một tên trên PATH, hoặc bỏ biến này để dùng redis-server.</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Không ghi được %1: %2</translation>
    </message>
</context>
<context>
    <name>RateSweep</name>
    <message>
        <source>A sweep is already running: stop it first.</source>
        <translation>Một lượt quét đang chạy: hãy dừng nó trước.</translation>
    </message>
</context>
<context>
    <name>RedisConnection</name>
    <message>
        <source>redis://:PASSWORD@%1 (or redis://USER:PASSWORD@%1 for an ACL user)</source>
        <translation>redis://:PASSWORD@%1 (hoặc redis://USER:PASSWORD@%1 với người dùng ACL)</translation>
    </message>
    <message>
        <source>Lost the connection to %1: %2. Check that the server is still running.</source>
        <translation>Mất kết nối tới %1: %2. Hãy kiểm tra xem server có còn đang chạy không.</translation>
    </message>
    <message>
        <source>The server at %1 needs a password. Give it in the URL: %2.</source>
        <translation>Server tại %1 yêu cầu mật khẩu. Hãy nhập mật khẩu trong URL: %2.</translation>
    </message>
    <message>
        <source>The server at %1 refused the user name or password. Check the credentials in the URL: %2.</source>
        <translation>Server tại %1 đã từ chối tên người dùng hoặc mật khẩu. Hãy kiểm tra thông tin đăng nhập trong URL: %2.</translation>
    </message>
    <message>
        <source>The ACL user &quot;%1&quot; may not run this command (%2). Grant it with e.g. ACL SETUSER %1 +@scripting +@sortedset +@string +@keyspace ~zsetlab:*.</source>
        <translation>Người dùng ACL &quot;%1&quot; không được phép chạy lệnh này (%2). Hãy cấp quyền, ví dụ bằng ACL SETUSER %1 +@scripting +@sortedset +@string +@keyspace ~zsetlab:*.</translation>
    </message>
    <message>
        <source>Out of memory while connecting.</source>
        <translation>Hết bộ nhớ trong khi kết nối.</translation>
    </message>
    <message>
        <source>Nothing accepts connections on the socket %1 (connection refused). Is redis-server running with unixsocket set to this path?</source>
        <translation>Không có gì nhận kết nối trên socket %1 (kết nối bị từ chối). redis-server có đang chạy với unixsocket đặt đúng đường dẫn này không?</translation>
    </message>
    <message>
        <source>Nothing is listening at %1 (connection refused). Start redis-server there, or choose another server.</source>
        <translation>Không có gì đang lắng nghe ở %1 (kết nối bị từ chối). Hãy khởi động redis-server ở đó, hoặc chọn một server khác.</translation>
    </message>
    <message>
        <source>There is no socket at %1. Check the path, or start redis-server with --unixsocket %1.</source>
        <translation>Không có socket nào ở %1. Hãy kiểm tra đường dẫn, hoặc khởi động redis-server với --unixsocket %1.</translation>
    </message>
    <message>
        <source>No answer from %1 within %2 ms. Check the host and port, a firewall, or raise the connect timeout.</source>
        <translation>Không có phản hồi từ %1 trong vòng %2 ms. Hãy kiểm tra host và port, tường lửa, hoặc tăng thời gian chờ kết nối.</translation>
    </message>
    <message>
        <source>The host &quot;%1&quot; is unknown (%2). Check its spelling in the URL.</source>
        <translation>Không tìm thấy host &quot;%1&quot; (%2). Hãy kiểm tra lại cách viết của nó trong URL.</translation>
    </message>
    <message>
        <source>Cannot connect to %1: %2.</source>
        <translation>Không kết nối được tới %1: %2.</translation>
    </message>
    <message>
        <source>This server does not know ACL users (Redis 6.0 or later): remove the user name from the URL. Server said: %1</source>
        <translation>Server này không hỗ trợ người dùng ACL (cần Redis 6.0 trở lên): hãy bỏ tên người dùng khỏi URL. Server trả lời: %1</translation>
    </message>
    <message>
        <source>The server at %1 has no password set: remove the password from the URL.</source>
        <translation>Server tại %1 không đặt mật khẩu: hãy bỏ mật khẩu khỏi URL.</translation>
    </message>
    <message>
        <source>The server refused database %1 (%2). Pick a database the server has, such as /0.</source>
        <translation>Server đã từ chối cơ sở dữ liệu %1 (%2). Hãy chọn một cơ sở dữ liệu mà server có, chẳng hạn /0.</translation>
    </message>
    <message>
        <source>%1 accepted the connection but did not answer within %2 ms. Is it a Redis server, and is it busy or paused?</source>
        <translation>%1 đã nhận kết nối nhưng không phản hồi trong vòng %2 ms. Đó có phải là server Redis không, và nó có đang bận hay bị tạm dừng không?</translation>
    </message>
    <message>
        <source>The server at %1 runs Redis %2, which has no Lua scripting. zsetlab needs Redis 2.6 or later.</source>
        <translation>Server tại %1 chạy Redis %2, phiên bản chưa có Lua script. zsetlab cần Redis 2.6 trở lên.</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>chưa kết nối</translation>
    </message>
    <message>
        <source>timed out waiting for a reply</source>
        <translation>hết thời gian chờ phản hồi</translation>
    </message>
    <message>
        <source>the server closed the connection</source>
        <translation>server đã đóng kết nối</translation>
    </message>
    <message>
        <source>unix://:PASSWORD@%1 (or unix://USER:PASSWORD@%1 for an ACL user)</source>
        <translation>unix://:PASSWORD@%1 (hoặc unix://USER:PASSWORD@%1 cho người dùng ACL)</translation>
    </message>
    <message>
        <source>If %1 is a TLS port, connect with rediss://.</source>
        <translation>Nếu %1 là cổng TLS, hãy kết nối bằng rediss://.</translation>
    </message>
    <message>
        <source>the reply could not be read</source>
        <translation>không đọc được phản hồi</translation>
    </message>
    <message>
        <source>no whole reply within %1 ms (%2 bytes of it came)</source>
        <translation>không có phản hồi trọn vẹn trong %1 ms (mới nhận %2 byte)</translation>
    </message>
    <message>
        <source>the server sent %L1 bytes without ending its reply; zsetlab reads at most %L2</source>
        <translation>server gửi %L1 byte mà chưa kết thúc phản hồi; zsetlab đọc tối đa %L2</translation>
    </message>
    <message>
        <source>This connection selects no database, and database %1 was asked for: a script runs in a sandbox on database 0 only.</source>
        <translation>Kết nối này không chọn database nào, trong khi database %1 được yêu cầu: một script chỉ chạy trong sandbox trên database 0.</translation>
    </message>
    <message>
        <source>the server sent a reply that would take more than %L1 MB to hold (%L2 parts read of it); zsetlab holds at most %L1 MB of one reply</source>
        <translation>server gửi một phản hồi cần hơn %L1 MB để giữ (đã đọc %L2 phần của nó); zsetlab giữ tối đa %L1 MB cho một phản hồi</translation>
    </message>
</context>
<context>
    <name>RedisEndpoint</name>
    <message>
        <source>The database number &quot;%1&quot; is not valid: use a whole number from 0 (e.g. /0).</source>
        <translation>Số cơ sở dữ liệu &quot;%1&quot; không hợp lệ: hãy dùng một số nguyên từ 0 trở lên (ví dụ /0).</translation>
    </message>
    <message>
        <source>No Redis URL given: use redis://host:port or unix:///path/to/redis.sock.</source>
        <translation>Chưa có URL Redis: hãy dùng redis://host:port hoặc unix:///path/to/redis.sock.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a Redis URL: write redis://host:port[/db] or unix:///path/to.sock.</source>
        <translation>&quot;%1&quot; không phải là URL Redis: hãy viết redis://host:port[/db] hoặc unix:///path/to.sock.</translation>
    </message>
    <message>
        <source>The URL &quot;%1&quot; is malformed: %2.</source>
        <translation>URL &quot;%1&quot; không đúng định dạng: %2.</translation>
    </message>
    <message>
        <source>The URL names user &quot;%1&quot; without a password: write redis://%1:PASSWORD@host.</source>
        <translation>URL có tên người dùng &quot;%1&quot; nhưng không có mật khẩu: hãy viết redis://%1:PASSWORD@host.</translation>
    </message>
    <message>
        <source>A unix URL has no host: write unix:///path/to.sock (three slashes), not unix://%1….</source>
        <translation>URL unix không có host: hãy viết unix:///path/to.sock (ba dấu gạch chéo), chứ không phải unix://%1….</translation>
    </message>
    <message>
        <source>The unix URL has no socket path: write unix:///path/to/redis.sock.</source>
        <translation>URL unix chưa có đường dẫn socket: hãy viết unix:///path/to/redis.sock.</translation>
    </message>
    <message>
        <source>Unknown URL option &quot;%1&quot;: the only option of a unix URL is ?db=N.</source>
        <translation>Không nhận ra tuỳ chọn URL &quot;%1&quot;: URL unix chỉ có một tuỳ chọn duy nhất là ?db=N.</translation>
    </message>
    <message>
        <source>The URL has no host: write redis://host[:port][/db].</source>
        <translation>URL chưa có host: hãy viết redis://host[:port][/db].</translation>
    </message>
    <message>
        <source>The port must be from 1 to 65535.</source>
        <translation>Port phải từ 1 đến 65535.</translation>
    </message>
    <message>
        <source>Unexpected URL options &quot;?%1&quot;: put the database in the path, as in redis://host:port/2.</source>
        <translation>Không dùng được tuỳ chọn URL &quot;?%1&quot;: hãy đặt cơ sở dữ liệu trong đường dẫn, như redis://host:port/2.</translation>
    </message>
    <message>
        <source>The socket path contains a NUL character (%00), which no socket path can hold: remove it.</source>
        <translation>Đường dẫn socket chứa ký tự NUL (%00), điều mà không đường dẫn socket nào chứa được: hãy bỏ nó đi.</translation>
    </message>
    <message>
        <source>The socket path is %1 bytes long; a unix socket path can have at most %2. Use a shorter path (a link to the socket&apos;s folder, say).</source>
        <translation>Đường dẫn socket dài %1 byte; đường dẫn của một unix socket chỉ được tối đa %2 byte. Hãy dùng một đường dẫn ngắn hơn (chẳng hạn một liên kết tới thư mục chứa socket).</translation>
    </message>
    <message>
        <source>Unknown scheme &quot;%1://&quot;: use redis:// for TCP, rediss:// for TLS or unix:// for a socket.</source>
        <translation>Scheme &quot;%1://&quot; không hợp lệ: dùng redis:// cho TCP, rediss:// cho TLS hoặc unix:// cho socket.</translation>
    </message>
    <message>
        <source>The TLS options (CA, client certificate, SNI, insecure) go with a rediss:// URL: write rediss://%1 for a server that speaks TLS.</source>
        <translation>Các tùy chọn TLS (CA, chứng chỉ máy khách, SNI, insecure) đi cùng URL rediss://: hãy viết rediss://%1 cho máy chủ nói TLS.</translation>
    </message>
    <message>
        <source>A client certificate needs its key and the key its certificate: give both --tls-cert FILE and --tls-key FILE.</source>
        <translation>Chứng chỉ máy khách cần khóa của nó và ngược lại: hãy cho cả --tls-cert FILE và --tls-key FILE.</translation>
    </message>
</context>
<context>
    <name>RedisReply</name>
    <message>
        <source>no reply</source>
        <translation>không có phản hồi</translation>
    </message>
</context>
<context>
    <name>ReplayActions</name>
    <message>
        <source>zsetlab replays (*.%1);;All files (*)</source>
        <translation>Bản phát lại zsetlab (*.%1);;Mọi tệp (*)</translation>
    </message>
    <message>
        <source>Open Rep&amp;lay…</source>
        <translation>Mở bản &amp;phát lại…</translation>
    </message>
    <message>
        <source>Save Repla&amp;y…</source>
        <translation>Lưu bản phát lạ&amp;i…</translation>
    </message>
    <message>
        <source>Open Replay</source>
        <translation>Mở bản phát lại</translation>
    </message>
    <message>
        <source>%1

Nothing was changed: open another replay.</source>
        <translation>%1

Không có gì thay đổi: hãy mở một bản phát lại khác.</translation>
    </message>
    <message>
        <source>%1 holds no request: its run was stopped before the first answer.</source>
        <translation>%1 không chứa request nào: lần chạy đã bị dừng trước phản hồi đầu tiên.</translation>
    </message>
    <message>
        <source>Save Replay</source>
        <translation>Lưu bản phát lại</translation>
    </message>
    <message numerus="yes">
        <source>Saved the run, %Ln request(s), as %1</source>
        <translation>
            <numerusform>Đã lưu lần chạy, %Ln request, thành %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Export &amp;Animation…</source>
        <translation>Xuất &amp;hoạt ảnh…</translation>
    </message>
    <message>
        <source>Animated GIF (*.gif)</source>
        <translation>GIF động (*.gif)</translation>
    </message>
    <message>
        <source>Export Animation</source>
        <translation>Xuất hoạt ảnh</translation>
    </message>
    <message>
        <source>MP4 video (*.mp4)</source>
        <translation>Video MP4 (*.mp4)</translation>
    </message>
    <message>
        <source>WebM video (*.webm)</source>
        <translation>Video WebM (*.webm)</translation>
    </message>
    <message>
        <source>Drawing the run request by request…</source>
        <translation>Đang vẽ lần chạy từng request một…</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Dừng</translation>
    </message>
    <message>
        <source>The animation was not written: %1</source>
        <translation>Chưa ghi được hoạt ảnh: %1</translation>
    </message>
    <message>
        <source>Exported the run as an animation: %1</source>
        <translation>Đã xuất lần chạy thành hoạt ảnh: %1</translation>
    </message>
    <message>
        <source>Export as &amp;Web Page…</source>
        <translation>Xuất thành t&amp;rang web…</translation>
    </message>
    <message>
        <source>There is no run on screen to export: fire a burst or open a replay first.</source>
        <translation>Không có lần chạy nào trên màn hình để xuất: hãy bắn một loạt request hoặc mở một bản phát lại trước.</translation>
    </message>
    <message>
        <source>Export as Web Page</source>
        <translation>Xuất thành trang web</translation>
    </message>
    <message>
        <source>Web pages (*.html)</source>
        <translation>Trang web (*.html)</translation>
    </message>
    <message>
        <source>The web page was not written: %1</source>
        <translation>Chưa ghi được trang web: %1</translation>
    </message>
    <message>
        <source>Exported the run as a web page that plays offline: %1</source>
        <translation>Đã xuất lần chạy thành một trang web phát được cả khi không có mạng: %1</translation>
    </message>
</context>
<context>
    <name>ReplayFile</name>
    <message>
        <source>The replay is damaged (%1). Save the run again, or open another copy of the file.</source>
        <translation>Bản phát lại bị hỏng (%1). Hãy lưu lại lần chạy, hoặc mở một bản sao khác của tệp.</translation>
    </message>
    <message>
        <source>This is not a zsetlab replay: it is not gzip-compressed. Open a file saved with File &gt; Save Replay or zsetlab-cli run --save-replay.</source>
        <translation>Đây không phải bản phát lại của zsetlab: tệp không được nén gzip. Hãy mở một tệp đã lưu bằng Tệp &gt; Lưu bản phát lại hoặc zsetlab-cli run --save-replay.</translation>
    </message>
    <message>
        <source>The replay ends early: the file is incomplete (cut off while it was copied or saved). Save the run again, or copy the whole file.</source>
        <translation>Bản phát lại kết thúc sớm: tệp không đầy đủ (bị cắt khi sao chép hoặc lưu). Hãy lưu lại lần chạy, hoặc sao chép đủ cả tệp.</translation>
    </message>
    <message>
        <source>its compressed data does not check out</source>
        <translation>dữ liệu nén không khớp mã kiểm tra</translation>
    </message>
    <message>
        <source>This is not a zsetlab replay (it does not start as one). Open a file saved with File &gt; Save Replay or zsetlab-cli run --save-replay.</source>
        <translation>Đây không phải bản phát lại của zsetlab (phần đầu tệp không đúng). Hãy mở một tệp đã lưu bằng Tệp &gt; Lưu bản phát lại hoặc zsetlab-cli run --save-replay.</translation>
    </message>
    <message>
        <source>no format version</source>
        <translation>không có phiên bản định dạng</translation>
    </message>
    <message>
        <source>This replay was saved by a newer zsetlab (replay format %1; this one reads format %2). Open it with a newer zsetlab.</source>
        <translation>Bản phát lại này được lưu bởi zsetlab mới hơn (định dạng %1; bản này đọc định dạng %2). Hãy mở nó bằng zsetlab mới hơn.</translation>
    </message>
    <message>
        <source>its header is not readable</source>
        <translation>không đọc được phần đầu</translation>
    </message>
    <message>
        <source>its header lacks a field or holds one out of range</source>
        <translation>phần đầu thiếu một trường hoặc có trường nằm ngoài khoảng cho phép</translation>
    </message>
    <message>
        <source>it records more requests than its run planned</source>
        <translation>nó ghi nhiều request hơn số lần chạy đã định</translation>
    </message>
    <message>
        <source>its columns do not match its request count</source>
        <translation>các cột không khớp với số request</translation>
    </message>
    <message>
        <source>an error names no request</source>
        <translation>một lỗi không gắn với request nào</translation>
    </message>
    <message>
        <source>its error list does not read</source>
        <translation>không đọc được danh sách lỗi</translation>
    </message>
    <message>
        <source>request %L1 holds an unknown value</source>
        <translation>request %L1 chứa một giá trị không rõ</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>thất bại</translation>
    </message>
    <message>
        <source>a column of its requests does not read</source>
        <translation>không đọc được một cột request</translation>
    </message>
    <message>
        <source>Could not open %1: %2.</source>
        <translation>Không mở được %1: %2.</translation>
    </message>
    <message>
        <source>%1 is larger than any replay zsetlab saves (1 GB): it is not a replay.</source>
        <translation>%1 lớn hơn mọi bản phát lại zsetlab lưu (1 GB): đây không phải bản phát lại.</translation>
    </message>
    <message>
        <source>its header does not match its kind of run</source>
        <translation>phần đầu của nó không khớp với loại lần chạy của nó</translation>
    </message>
    <message>
        <source>The replay unpacks to more than %L1 times its size (or %L2 MB), more than any run zsetlab records: it is not a replay, or it is damaged.</source>
        <translation>Bản phát lại giải nén ra hơn %L1 lần kích thước của nó (hoặc %L2 MB), nhiều hơn bất kỳ lần chạy nào zsetlab ghi lại: đây không phải bản phát lại, hoặc nó đã hỏng.</translation>
    </message>
    <message>
        <source>its format version is 0, which no zsetlab writes</source>
        <translation>phiên bản định dạng của nó là 0, không zsetlab nào ghi như vậy</translation>
    </message>
    <message>
        <source>it claims %L1 requests in a file of %L2 bytes, more than %L3 a byte, which no zsetlab replay packs</source>
        <translation>nó ghi %L1 yêu cầu trong một tệp %L2 byte, hơn %L3 yêu cầu mỗi byte, điều không bản phát lại nào của zsetlab có</translation>
    </message>
    <message>
        <source>request %L1&apos;s time is out of range</source>
        <translation>thời gian của yêu cầu %L1 nằm ngoài phạm vi</translation>
    </message>
    <message>
        <source>Could not save the replay: %1</source>
        <translation>Không lưu được bản phát lại: %1</translation>
    </message>
    <message>
        <source>Could not save the replay as %1: it could not be packed.</source>
        <translation>Không lưu được bản phát lại thành %1: không nén được nó.</translation>
    </message>
    <message>
        <source>stopped by a signal before it was read</source>
        <translation>bị một tín hiệu dừng trước khi đọc xong</translation>
    </message>
</context>
<context>
    <name>ReplayFork</name>
    <message>
        <source>A fork starts at a request of the run: from 1 to %L1.</source>
        <translation>Nhánh rẽ bắt đầu tại một request của lần chạy: từ 1 đến %L1.</translation>
    </message>
    <message>
        <source>The replay&apos;s plan does not read (%1): it cannot be fired again.</source>
        <translation>Không đọc được kế hoạch của bản phát lại (%1): không thể bắn lại.</translation>
    </message>
    <message>
        <source>The replay ran your own script, which it does not carry as a limiter: choose one of zsetlab&apos;s limiters for the fork.</source>
        <translation>Bản phát lại đã chạy script riêng của bạn, mà nó không mang theo như một limiter: hãy chọn một limiter của zsetlab cho nhánh rẽ.</translation>
    </message>
    <message>
        <source>This limiter keeps no members zsetlab can copy: fork it from the first request, or record a limiter that keeps a ZSET.</source>
        <translation>Limiter này không giữ member nào để zsetlab sao chép: hãy rẽ nhánh từ request đầu tiên, hoặc ghi lại một limiter có dùng ZSET.</translation>
    </message>
    <message>
        <source>Could not copy the ZSET into the fork&apos;s key %1: %2</source>
        <translation>Không sao chép được ZSET vào key %1 của nhánh rẽ: %2</translation>
    </message>
</context>
<context>
    <name>ReplayMembersModel</name>
    <message>
        <source>the request failed: %1</source>
        <translation>request thất bại: %1</translation>
    </message>
    <message>
        <source>ZADD replied 1: a new member</source>
        <translation>ZADD trả về 1: một member mới</translation>
    </message>
    <message>
        <source>ZADD replied 0: the member was already there, nothing was added</source>
        <translation>ZADD trả về 0: member đã có sẵn, không thêm gì</translation>
    </message>
    <message>
        <source>refused: nothing written</source>
        <translation>bị từ chối: không ghi gì</translation>
    </message>
    <message>
        <source>the reply did not say what ZADD did</source>
        <translation>phản hồi không cho biết ZADD đã làm gì</translation>
    </message>
    <message>
        <source>Request %L1 wrote this member: %2</source>
        <translation>Request %L1 đã ghi member này: %2</translation>
    </message>
    <message numerus="yes">
        <source>Written by request %L1; %n request(s) wrote this member so far</source>
        <translation>
            <numerusform>Được ghi bởi request %L1; tới giờ có %n request đã ghi member này</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Hạng</translation>
    </message>
    <message>
        <source>Member</source>
        <translation>Member</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <source>Writes</source>
        <translation>Số lần ghi</translation>
    </message>
    <message>
        <source>There before the first request: the what-if went on from the run&apos;s ZSET</source>
        <translation>Đã có trước request đầu tiên: phương án nếu như tiếp tục từ ZSET của lần chạy</translation>
    </message>
</context>
<context>
    <name>ReplyReading</name>
    <message>
        <source>a count that includes the call (admitted while count &lt;= limit)</source>
        <translation>count đã tính cả lệnh gọi này (được cho qua khi count &lt;= limit)</translation>
    </message>
    <message>
        <source>the count before the call (admitted while count &lt; limit)</source>
        <translation>count trước lệnh gọi này (được cho qua khi count &lt; limit)</translation>
    </message>
    <message>
        <source>the script&apos;s own decision (1/true = admitted, 0/false = refused)</source>
        <translation>quyết định của chính script (1/true = được cho qua, 0/false = bị từ chối)</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>không đọc được</translation>
    </message>
    <message>
        <source>no replies to read</source>
        <translation>không có phản hồi nào để đọc</translation>
    </message>
    <message>
        <source>the reply %1 is neither a number, 0/1 nor true/false</source>
        <translation>phản hồi %1 không phải là số, cũng không phải 0/1 hay true/false</translation>
    </message>
    <message>
        <source>every call replied 0, false or nil although no limit applied</source>
        <translation>mọi lệnh gọi đều trả về 0, false hoặc nil dù không có giới hạn nào được áp dụng</translation>
    </message>
    <message>
        <source>the replies (%1) are neither a count that grows by one per call nor 0/1</source>
        <translation>các phản hồi (%1) không phải là count tăng thêm một sau mỗi lệnh gọi, cũng không phải 0/1</translation>
    </message>
    <message>
        <source>%1 calls replied %2 (the limit) again: a script that refuses without adding replies its unchanged count, so zsetlab cannot tell whether they were admitted; a reply of 0/1 or {allowed, count} would say</source>
        <translation>%1 lệnh gọi lại trả về %2 (đúng bằng giới hạn): một script từ chối mà không thêm phần tử sẽ trả về count không đổi, nên zsetlab không biết được các lệnh gọi đó có được cho qua hay không; phản hồi dạng 0/1 hoặc {allowed, count} thì sẽ cho biết điều này</translation>
    </message>
    <message>
        <source>the replies could not be read</source>
        <translation>không đọc được các phản hồi</translation>
    </message>
    <message>
        <source>whether the call is limited (0/false/nil = admitted, 1/true or a wait = refused)</source>
        <translation>lệnh gọi có bị giới hạn hay không (0/false/nil = được cho qua, 1/true hoặc một thời gian chờ = bị từ chối)</translation>
    </message>
    <message>
        <source>nil for an admitted call, anything else for a refused one</source>
        <translation>nil nếu lệnh gọi được cho qua, bất kỳ giá trị nào khác nếu bị từ chối</translation>
    </message>
    <message>
        <source>every call replied %1, with and without a limit, so the replies do not tell an admitted call from a refused one; say how they read with --reply</source>
        <translation>mọi lệnh gọi đều trả về %1, dù có hay không có giới hạn, nên các phản hồi không phân biệt được lệnh gọi được cho qua với lệnh gọi bị từ chối; hãy chỉ rõ cách đọc chúng bằng --reply</translation>
    </message>
    <message>
        <source>%1 replies did not say whether the call was admitted</source>
        <translation>%1 phản hồi không cho biết lệnh gọi có được cho qua hay không</translation>
    </message>
    <message>
        <source>{allowed, count}: the script&apos;s own decision (1 = admitted, 0 = refused) and what it counts against the limit</source>
        <translation>{allowed, count}: quyết định của chính script (1 = được nhận, 0 = bị từ chối) và số nó đếm so với limit</translation>
    </message>
    <message>
        <source>what is left of the limit after the call (0 or more = admitted, -1 = refused)</source>
        <translation>phần còn lại của giới hạn sau lệnh gọi (từ 0 trở lên = cho qua, -1 = từ chối)</translation>
    </message>
    <message>
        <source>what was left of the limit before the call (1 or more = admitted, 0 = refused)</source>
        <translation>phần còn lại của giới hạn trước lần gọi (1 trở lên = được nhận, 0 = bị từ chối)</translation>
    </message>
    <message>
        <source>the reply itself (or its first element)</source>
        <translation>chính phản hồi (hoặc phần tử đầu tiên của nó)</translation>
    </message>
    <message>
        <source>element %1 of the reply</source>
        <translation>phần tử thứ %1 của phản hồi</translation>
    </message>
    <message>
        <source>%1: %2 for an admitted call, %3 for a refused one</source>
        <translation>%1: %2 nếu lệnh gọi được cho qua, %3 nếu bị từ chối</translation>
    </message>
    <message>
        <source>anything else</source>
        <translation>bất kỳ giá trị nào khác</translation>
    </message>
    <message>
        <source>a value (a slot&apos;s name, a token) for an admitted call, nil for a refused one</source>
        <translation>một giá trị (tên một chỗ, một token) nếu lệnh gọi được cho qua, nil nếu bị từ chối</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(không có)</translation>
    </message>
    <message>
        <source>no such element</source>
        <translation>không có phần tử đó</translation>
    </message>
    <message>
        <source>nil</source>
        <translation>nil</translation>
    </message>
    <message>
        <source>0</source>
        <translation>0</translation>
    </message>
    <message>
        <source>a number above 0</source>
        <translation>một số lớn hơn 0</translation>
    </message>
    <message>
        <source>a number below 0</source>
        <translation>một số nhỏ hơn 0</translation>
    </message>
    <message>
        <source>text</source>
        <translation>văn bản</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>một mảng</translation>
    </message>
</context>
<context>
    <name>RunCursor</name>
    <message numerus="yes">
        <source>%Ln request(s)/s</source>
        <translation>
            <numerusform>%Ln request/s</numerusform>
        </translation>
    </message>
    <message>
        <source>%1× time</source>
        <translation>%1× thời gian</translation>
    </message>
</context>
<context>
    <name>RunPicture</name>
    <message>
        <source>%1 · after request %L2 of %L3</source>
        <translation>%1 · sau request %L2/%L3</translation>
    </message>
</context>
<context>
    <name>RunStatus</name>
    <message>
        <source>%L1 sent, %L2 stored, %L3 lost</source>
        <translation>đã gửi %L1, đã lưu %L2, mất %L3</translation>
    </message>
    <message numerus="yes">
        <source>%L1 sent; stored unknown (the replies do not say), %Ln member(s) in the ZSET</source>
        <translation>
            <numerusform>đã gửi %L1; số đã lưu không rõ (các phản hồi không cho biết), %Ln member trong ZSET</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 · %3: %4</source>
        <translation>%1: %2 · %3: %4</translation>
    </message>
    <message>
        <source>Stopped: %1.</source>
        <translation>Đã dừng: %1.</translation>
    </message>
    <message>
        <source>Done: %1.</source>
        <translation>Xong: %1.</translation>
    </message>
</context>
<context>
    <name>RunView</name>
    <message>
        <source>Timeline</source>
        <translation>Dòng thời gian</translation>
    </message>
    <message>
        <source>Counts</source>
        <translation>Số đếm</translation>
    </message>
    <message>
        <source>The charts share this place: the screen is too low for both at this text size.</source>
        <translation>Hai biểu đồ dùng chung chỗ này: màn hình quá thấp để hiện cả hai ở cỡ chữ này.</translation>
    </message>
    <message>
        <source>Timeline and ZSET of &amp;user</source>
        <translation>Dòng thời gian và ZSET của người &amp;dùng</translation>
    </message>
    <message numerus="yes">
        <source> of %n user(s)</source>
        <translation>
            <numerusform> trên %n người dùng</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The run spreads its requests over %n user(s), each its own limiter key (request i is user i mod %n). The charts and the ZSET show one user; the figures above are the whole run&apos;s.</source>
        <translation>
            <numerusform>Lượt chạy chia yêu cầu cho %n người dùng, mỗi người một khóa giới hạn riêng (yêu cầu i thuộc người dùng i mod %n). Biểu đồ và ZSET cho thấy một người dùng; các con số phía trên là của cả lượt chạy.</numerusform>
        </translation>
    </message>
    <message>
        <source>Per user and per node: when the run ends.</source>
        <translation>Theo người dùng và theo nút: khi lượt chạy kết thúc.</translation>
    </message>
    <message>
        <source>sent %1, overwritten %2, beyond the limit %3</source>
        <translation>đã gửi %1, bị ghi đè %2, vượt giới hạn %3</translation>
    </message>
    <message>
        <source>on %1: %2</source>
        <translation>trên %1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %Ln user(s), %2</source>
        <translation>
            <numerusform>%1: %Ln người dùng, %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Per node:
%1</source>
        <translation>Theo nút:
%1</translation>
    </message>
</context>
<context>
    <name>RunawayGuard</name>
    <message>
        <source>the call did not return although the server answered PING</source>
        <translation>lệnh gọi không trả về dù server vẫn phản hồi PING</translation>
    </message>
    <message>
        <source>The script did not finish within %1 ms: zsetlab ended it with SCRIPT KILL, and the server answers again. A limiter script runs in well under a millisecond; look for a loop that never ends.</source>
        <translation>Script không chạy xong trong vòng %1 ms: zsetlab đã kết thúc nó bằng SCRIPT KILL, và server đã phản hồi trở lại. Một script rate limiter chạy mất chưa tới một millisecond; hãy tìm một vòng lặp không bao giờ kết thúc.</translation>
    </message>
    <message>
        <source>The script did not finish within %1 ms, and it had already written, so Redis refused SCRIPT KILL (UNKILLABLE). The server was zsetlab&apos;s own private one, so zsetlab shut it down (SHUTDOWN NOSAVE). Look for a loop that never ends.</source>
        <translation>Script không chạy xong trong vòng %1 ms, và nó đã ghi dữ liệu, nên Redis từ chối SCRIPT KILL (UNKILLABLE). Server đó là server riêng của zsetlab, nên zsetlab đã tắt nó (SHUTDOWN NOSAVE). Hãy tìm một vòng lặp không bao giờ kết thúc.</translation>
    </message>
    <message>
        <source>The script did not finish within %1 ms, and Redis refused SCRIPT KILL because the script had already written (UNKILLABLE: &quot;%2&quot;). The server at %3 stays busy and answers every client with BUSY until the script ends, which for an endless loop is never. zsetlab does not shut down a server it did not start. The operator can wait for the script to end, or run SHUTDOWN NOSAVE on that server (every write since the last save is lost) and start it again.</source>
        <translation>Script không chạy xong trong vòng %1 ms, và Redis từ chối SCRIPT KILL vì script đã ghi dữ liệu (UNKILLABLE: &quot;%2&quot;). Server tại %3 vẫn bận và trả lời mọi client bằng BUSY cho đến khi script kết thúc, mà với một vòng lặp vô tận thì sẽ không bao giờ kết thúc. zsetlab không tắt một server mà nó không khởi động. Người vận hành có thể chờ script kết thúc, hoặc chạy SHUTDOWN NOSAVE trên server đó (mọi thao tác ghi kể từ lần lưu gần nhất sẽ bị mất) rồi khởi động lại server.</translation>
    </message>
    <message>
        <source>The script did not finish within %1 ms, and zsetlab could not end it on the server at %2 (%3). It may still be running the script: check with redis-cli PING, and end it with SCRIPT KILL.</source>
        <translation>Script không chạy xong trong vòng %1 ms, và zsetlab không kết thúc được nó trên server tại %2 (%3). Server có thể vẫn đang chạy script: hãy kiểm tra bằng redis-cli PING, và kết thúc script bằng SCRIPT KILL.</translation>
    </message>
    <message>
        <source>The function did not finish within %1 ms: zsetlab ended it with FUNCTION KILL, and the server answers again. A limiter runs in well under a millisecond; look for a loop that never ends.</source>
        <translation>Hàm không kết thúc trong vòng %1 ms: zsetlab đã dừng nó bằng FUNCTION KILL, và server đã trả lời trở lại. Một rate limiter chạy chưa tới một millisecond; hãy tìm một vòng lặp không bao giờ kết thúc.</translation>
    </message>
</context>
<context>
    <name>Scenario</name>
    <message>
        <source>a list</source>
        <translation>một danh sách</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>một đối tượng</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>giá trị rỗng</translation>
    </message>
    <message>
        <source>%1: expected %2, got %3.</source>
        <translation>%1: cần %2, nhưng nhận được %3.</translation>
    </message>
    <message>
        <source>a whole number from %1 to %2</source>
        <translation>một số nguyên từ %1 đến %2</translation>
    </message>
    <message>
        <source>a number from %1 to %2</source>
        <translation>một số từ %1 đến %2</translation>
    </message>
    <message>
        <source>text</source>
        <translation>một chuỗi</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true hoặc false</translation>
    </message>
    <message>
        <source>plan: expected an object with the burst&apos;s settings.</source>
        <translation>plan: cần một đối tượng chứa các thiết lập của burst.</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>một trong các giá trị %1</translation>
    </message>
    <message>
        <source>a list of milliseconds</source>
        <translation>một danh sách các số millisecond</translation>
    </message>
    <message>
        <source>whole milliseconds within one day</source>
        <translation>các số nguyên millisecond trong phạm vi một ngày</translation>
    </message>
    <message>
        <source>app servers as &quot;rate=2;rate=2,offset=40&quot; (%1)</source>
        <translation>các app server dạng &quot;rate=2;rate=2,offset=40&quot; (%1)</translation>
    </message>
    <message>
        <source>Not valid JSON at character %1: %2.</source>
        <translation>JSON không hợp lệ tại ký tự %1: %2.</translation>
    </message>
    <message>
        <source>Expected a JSON object at the top of a scenario file.</source>
        <translation>Cần một đối tượng JSON ở cấp ngoài cùng của tệp kịch bản.</translation>
    </message>
    <message>
        <source>schema: this zsetlab reads %1; the file is %2 (made by another version).</source>
        <translation>schema: phiên bản zsetlab này đọc được %1; còn tệp này là %2 (do một phiên bản khác tạo ra).</translation>
    </message>
    <message>
        <source>&quot;en&quot; or &quot;vi&quot;</source>
        <translation>&quot;en&quot; hoặc &quot;vi&quot;</translation>
    </message>
    <message>
        <source>plan: missing; a scenario needs the burst&apos;s settings.</source>
        <translation>plan: bị thiếu; một kịch bản cần có các thiết lập của burst.</translation>
    </message>
    <message>
        <source>view.timeline_ms: expected [from, to] in milliseconds with from &lt; to.</source>
        <translation>view.timeline_ms: cần [from, to] tính bằng millisecond, với from &lt; to.</translation>
    </message>
    <message>
        <source>Cannot open the scenario %1: %2.</source>
        <translation>Không mở được kịch bản %1: %2.</translation>
    </message>
    <message>
        <source>%1 must be %2, not %3.</source>
        <translation>%1 phải là %2, không phải %3.</translation>
    </message>
    <message>
        <source>%1 holds more than %2 bytes: too large for a scenario file. Give the path of a scenario&apos;s JSON file.</source>
        <translation>%1 chứa hơn %2 byte: quá lớn đối với một tệp kịch bản. Hãy đưa đường dẫn của tệp JSON của một kịch bản.</translation>
    </message>
    <message>
        <source>burst, interval:MICROS, poisson:PER_MS or bursts:N@MS</source>
        <translation>burst, interval:MICROS, poisson:PER_MS hoặc bursts:N@MS</translation>
    </message>
    <message>
        <source>recording: expected a replay file&apos;s bytes in base64.</source>
        <translation>recording: cần nội dung một tệp phát lại ở dạng base64.</translation>
    </message>
</context>
<context>
    <name>ScenarioActions</name>
    <message>
        <source>&amp;Open Scenario…</source>
        <translation>&amp;Mở kịch bản…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>Mở &amp;gần đây</translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation>&amp;Ví dụ</translation>
    </message>
    <message>
        <source>&amp;Save Scenario…</source>
        <translation>&amp;Lưu kịch bản…</translation>
    </message>
    <message>
        <source>Open Scenario</source>
        <translation>Mở kịch bản</translation>
    </message>
    <message>
        <source>%1

Nothing was changed: fix the file or open another one.</source>
        <translation>%1

Chưa có gì bị thay đổi: hãy sửa tệp hoặc mở một tệp khác.</translation>
    </message>
    <message>
        <source>Opened %1: press F5 to fire.</source>
        <translation>Đã mở %1: nhấn F5 để bắn.</translation>
    </message>
    <message>
        <source>zsetlab scenarios (*.json);;All files (*)</source>
        <translation>Kịch bản zsetlab (*.json);;Tất cả các tệp (*)</translation>
    </message>
    <message>
        <source>Save Scenario</source>
        <translation>Lưu kịch bản</translation>
    </message>
    <message>
        <source>zsetlab scenarios (*.json)</source>
        <translation>Kịch bản zsetlab (*.json)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Đã lưu %1</translation>
    </message>
    <message>
        <source>Save Scenario &amp;with Its Run…</source>
        <translation>Lưu kịch bản &amp;kèm lần chạy…</translation>
    </message>
    <message>
        <source>Save Scenario with Its Run</source>
        <translation>Lưu kịch bản kèm lần chạy</translation>
    </message>
    <message>
        <source>There is no run on screen to carry: fire a burst or open a replay first.</source>
        <translation>Không có lần chạy nào trên màn hình để mang theo: hãy bắn một loạt request hoặc mở một bản phát lại trước.</translation>
    </message>
    <message>
        <source>This run takes %L1 KiB as a replay, more than a scenario carries (%L2 KiB): save it with File &gt; Save Replay instead.</source>
        <translation>Lần chạy này chiếm %L1 KiB dưới dạng bản phát lại, nhiều hơn mức một kịch bản mang được (%L2 KiB): hãy lưu bằng Tệp &gt; Lưu bản phát lại.</translation>
    </message>
</context>
<context>
    <name>ScriptDebugger</name>
    <message>
        <source>The debugging connection to %1 failed: %2.</source>
        <translation>Kết nối debug tới %1 bị lỗi: %2.</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Đã huỷ.</translation>
    </message>
    <message>
        <source>Redis %1 has no Lua debugger: SCRIPT DEBUG came with Redis 3.2.</source>
        <translation>Redis %1 không có Lua debugger: SCRIPT DEBUG chỉ có từ Redis 3.2 trở đi.</translation>
    </message>
    <message>
        <source>The server refused SCRIPT DEBUG: %1</source>
        <translation>Server từ chối SCRIPT DEBUG: %1</translation>
    </message>
    <message>
        <source>The debugging session is no longer open.</source>
        <translation>Phiên debug không còn mở nữa.</translation>
    </message>
    <message>
        <source>Read inside the forked session: the server itself does not see these writes.</source>
        <translation>Đọc bên trong phiên fork: chính server không nhìn thấy những lần ghi này.</translation>
    </message>
    <message>
        <source>Read through the debugger: the server answers no other client during the session.</source>
        <translation>Đọc qua debugger: trong suốt phiên, server không phản hồi client nào khác.</translation>
    </message>
    <message>
        <source>ZCARD %1 answered %2</source>
        <translation>ZCARD %1 trả về %2</translation>
    </message>
    <message>
        <source> The debugger trimmed the list.</source>
        <translation> Debugger đã cắt bớt danh sách.</translation>
    </message>
    <message>
        <source>Read from the server after the session: the forked copy&apos;s writes were rolled back.</source>
        <translation>Đọc từ server sau khi phiên kết thúc: những gì bản sao fork ghi vào đã được hoàn tác.</translation>
    </message>
    <message>
        <source>Read from the server after the session: the script&apos;s writes were kept.</source>
        <translation>Đọc từ server sau khi phiên kết thúc: những gì script ghi vào được giữ lại.</translation>
    </message>
    <message>
        <source>No debugger command for %1 s: the session was ended so that the server is not held.</source>
        <translation>Không có lệnh debugger nào trong %1 s: phiên đã được kết thúc để server không bị chiếm giữ.</translation>
    </message>
    <message>
        <source>Forked (changes rolled back)</source>
        <translation>Fork (thay đổi được hoàn tác)</translation>
    </message>
    <message>
        <source>Synchronous (changes kept)</source>
        <translation>Đồng bộ (thay đổi được giữ lại)</translation>
    </message>
    <message>
        <source>SCRIPT DEBUG YES: the server forks a copy of itself that runs the script. Other clients are served as usual, and every change the script makes is thrown away when the session ends.</source>
        <translation>SCRIPT DEBUG YES: server fork ra một bản sao của chính nó để chạy script. Các client khác vẫn được phục vụ như bình thường, và mọi thay đổi mà script tạo ra đều bị bỏ đi khi phiên kết thúc.</translation>
    </message>
    <message>
        <source>SCRIPT DEBUG SYNC: the server itself runs the script and serves no other client until the session ends. The script&apos;s changes are kept, also when it is stopped half-way.</source>
        <translation>SCRIPT DEBUG SYNC: chính server chạy script và không phục vụ client nào khác cho đến khi phiên kết thúc. Các thay đổi của script được giữ lại, kể cả khi script bị dừng giữa chừng.</translation>
    </message>
    <message>
        <source>No server is set for the debugger.</source>
        <translation>Chưa chọn server cho debugger.</translation>
    </message>
    <message>
        <source>There is no script to debug.</source>
        <translation>Không có script nào để debug.</translation>
    </message>
    <message>
        <source>The debugger takes keys of 1 to %1 bytes.</source>
        <translation>Debugger chỉ nhận key dài từ 1 đến %1 byte.</translation>
    </message>
    <message>
        <source>Synchronous debugging keeps the script&apos;s writes, so it runs only on zsetlab&apos;s own keys (&quot;%1...&quot;); use the forked mode for %2.</source>
        <translation>Debug đồng bộ giữ lại những gì script ghi vào, nên chỉ chạy trên các key của chính zsetlab (&quot;%1...&quot;); hãy dùng chế độ fork cho %2.</translation>
    </message>
    <message>
        <source>Another session was started.</source>
        <translation>Một phiên khác đã được bắt đầu.</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Đã dừng.</translation>
    </message>
    <message>
        <source>Redis cannot run a forked debugging session over TLS: the server ends the TLS session when it forks (redis-cli --ldb fails the same way). Choose the synchronous mode (it keeps the script&apos;s writes, on zsetlab&apos;s own keys), or connect to the server&apos;s plain port or unix socket.</source>
        <translation>Redis không chạy được phiên gỡ lỗi dạng fork qua TLS: máy chủ kết thúc phiên TLS khi fork (redis-cli --ldb cũng lỗi như vậy). Hãy chọn chế độ đồng bộ (giữ lại các lệnh ghi của script, trên khóa riêng của zsetlab), hoặc kết nối qua cổng thường hay unix socket của máy chủ.</translation>
    </message>
    <message>
        <source>This is a Redis Functions library, and a function cannot be stepped: the server&apos;s Lua debugger (SCRIPT DEBUG) takes EVAL scripts only, and FCALL never stops at a line. Step the function&apos;s body as an EVAL script instead (the library&apos;s code with a last line that calls the function with KEYS and ARGV).</source>
        <translation>Đây là một thư viện Redis Functions, và không thể chạy từng bước một hàm: trình gỡ lỗi Lua của server (SCRIPT DEBUG) chỉ nhận script EVAL, và FCALL không bao giờ dừng ở một dòng. Hãy chạy từng bước thân hàm như một script EVAL (mã của thư viện cùng một dòng cuối gọi hàm với KEYS và ARGV).</translation>
    </message>
</context>
<context>
    <name>ScriptDoctor</name>
    <message>
        <source>second</source>
        <translation>giây</translation>
    </message>
    <message>
        <source>millisecond</source>
        <translation>millisecond</translation>
    </message>
    <message>
        <source>microsecond</source>
        <translation>microsecond</translation>
    </message>
    <message>
        <source>nanosecond</source>
        <translation>nanosecond</translation>
    </message>
    <message>
        <source>timestamp</source>
        <translation>timestamp</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>giây</translation>
    </message>
    <message>
        <source>milliseconds</source>
        <translation>millisecond</translation>
    </message>
    <message>
        <source>microseconds</source>
        <translation>microsecond</translation>
    </message>
    <message>
        <source>nanoseconds</source>
        <translation>nanosecond</translation>
    </message>
    <message>
        <source>unknown units</source>
        <translation>đơn vị không rõ</translation>
    </message>
    <message>
        <source>use the request id the call already carries: redis.call(&apos;ZADD&apos;, key, now, ARGV[%1])</source>
        <translation>dùng request id mà lệnh gọi đã mang theo: redis.call(&apos;ZADD&apos;, key, now, ARGV[%1])</translation>
    </message>
    <message>
        <source>have the caller send a request id (a UUID; add {uuid} to --args) and use it as the member</source>
        <translation>để phía gọi gửi kèm một request id (một UUID; thêm {uuid} vào --args) và dùng nó làm member</translation>
    </message>
    <message>
        <source>Give every request a member of its own: %1, or append a server-side counter: local member = now .. &apos;-&apos; .. redis.call(&apos;INCR&apos;, key .. &apos;:seq&apos;).</source>
        <translation>Hãy cho mỗi request một member riêng: %1, hoặc nối thêm một bộ đếm phía server: local member = now .. &apos;-&apos; .. redis.call(&apos;INCR&apos;, key .. &apos;:seq&apos;).</translation>
    </message>
    <message>
        <source> (The member is built on line %1.)</source>
        <translation> (Member được tạo ở dòng %1.)</translation>
    </message>
    <message>
        <source>math.randomseed() makes the random member repeat</source>
        <translation>math.randomseed() khiến member ngẫu nhiên bị lặp lại</translation>
    </message>
    <message>
        <source>The member depends on math.random(), and line %1 seeds the generator: every call seeded alike draws the same numbers, so calls that carry the same time write the same member and the count does not grow. On Redis 7 the seed also resets the generator that every other script on the server shares.</source>
        <translation>Member phụ thuộc vào math.random(), và dòng %1 seed bộ sinh số ngẫu nhiên: mọi lệnh gọi được seed giống nhau đều rút ra cùng một dãy số, nên các lệnh gọi mang cùng thời điểm sẽ ghi vào cùng một member và count không tăng. Trên Redis 7, việc seed này còn đặt lại bộ sinh số mà mọi script khác trên server dùng chung.</translation>
    </message>
    <message>
        <source>Remove math.randomseed(). </source>
        <translation>Bỏ math.randomseed(). </translation>
    </message>
    <message>
        <source>The member relies on math.random(), which repeats before Redis 7</source>
        <translation>Member dựa vào math.random(), mà hàm này lặp lại giá trị trên các bản Redis trước 7</translation>
    </message>
    <message>
        <source>Redis 2.6 to 6.2 reseed Lua&apos;s generator with the same seed at the start of every script call, so the first math.random() gives the same number (0.17082803611217) in every call and members collide as with the bare timestamp. Redis 7.0 and later keep one generator running: unique there.</source>
        <translation>Redis từ 2.6 đến 6.2 seed lại bộ sinh số ngẫu nhiên của Lua bằng cùng một seed ở đầu mỗi lần gọi script, nên lần math.random() đầu tiên cho ra cùng một số (0.17082803611217) ở mọi lần gọi và các member bị trùng y như khi chỉ dùng timestamp. Từ Redis 7.0 trở đi, một bộ sinh số duy nhất được giữ chạy liên tục: ở đó member mới là duy nhất.</translation>
    </message>
    <message>
        <source>Prefer a request id or a server counter (INCR). To keep math.random() on Redis 3.2 to 6.2, call redis.replicate_commands() first: it reseeds the generator for each call.</source>
        <translation>Nên dùng request id hoặc bộ đếm trên server (INCR). Nếu muốn giữ math.random() trên Redis 3.2 đến 6.2, hãy gọi redis.replicate_commands() trước: hàm này seed lại bộ sinh số cho từng lần gọi.</translation>
    </message>
    <message>
        <source>The ZSET member is the timestamp</source>
        <translation>Member của ZSET là timestamp</translation>
    </message>
    <message>
        <source>The member is made from the time alone, so every call that carries the same %1 writes the same member: ZADD only updates the existing entry (it replies 0), the count does not grow, and a burst within one %1 passes the limit. Atomic scripts prevent races, not this.</source>
        <translation>Member chỉ được tạo từ thời gian, nên mọi lệnh gọi mang cùng một %1 đều ghi vào cùng một member: ZADD chỉ cập nhật phần tử đã có (và trả về 0), count không tăng, và một burst nằm trong cùng một %1 sẽ lọt qua giới hạn. Script atomic ngăn được race condition, nhưng không ngăn được chuyện này.</translation>
    </message>
    <message>
        <source>The ZSET member is the same for every call</source>
        <translation>Member của ZSET giống nhau ở mọi lệnh gọi</translation>
    </message>
    <message>
        <source>The member does not depend on the request, so every call writes the same entry and the count never passes 1.</source>
        <translation>Member không phụ thuộc vào request, nên mọi lệnh gọi đều ghi vào cùng một phần tử và count không bao giờ vượt quá 1.</translation>
    </message>
    <message>
        <source>EXPIRE is given %1</source>
        <translation>EXPIRE nhận giá trị tính bằng %1</translation>
    </message>
    <message>
        <source>EXPIRE counts in seconds, and this value is in %1: an idle key lives %2 times longer than the window (a 60000 ms window gives a 16.7 hour TTL). The count stays right because old entries are trimmed, but the keys of clients that went quiet pile up in memory.</source>
        <translation>EXPIRE tính bằng giây, còn giá trị này lại tính bằng %1: một key không còn dùng đến sẽ tồn tại lâu gấp %2 lần window (window 60000 ms cho TTL 16,7 giờ). Count vẫn đúng vì các phần tử cũ đã bị cắt bỏ, nhưng key của các client đã ngừng gửi cứ dồn lại trong bộ nhớ.</translation>
    </message>
    <message>
        <source>Use PEXPIRE, which counts in milliseconds: redis.call(&apos;PEXPIRE&apos;, key, window).</source>
        <translation>Hãy dùng PEXPIRE, lệnh này tính bằng millisecond: redis.call(&apos;PEXPIRE&apos;, key, window).</translation>
    </message>
    <message>
        <source>Convert to seconds first: math.ceil(window / 1000000).</source>
        <translation>Hãy đổi sang giây trước: math.ceil(window / 1000000).</translation>
    </message>
    <message>
        <source>PEXPIRE is given seconds</source>
        <translation>PEXPIRE nhận giá trị tính bằng giây</translation>
    </message>
    <message>
        <source>PEXPIRE counts in milliseconds, and this value is in seconds: the key expires 1000 times too soon (a 60 s window gives 60 ms) and takes the requests still inside the window with it, so the count drops and the limiter admits too many.</source>
        <translation>PEXPIRE tính bằng millisecond, còn giá trị này lại tính bằng giây: key hết hạn sớm gấp 1000 lần (window 60 s chỉ còn 60 ms) và kéo theo cả các request vẫn còn trong window, nên count bị tụt xuống và rate limiter cho qua quá nhiều request.</translation>
    </message>
    <message>
        <source>Use EXPIRE with seconds, or PEXPIRE with milliseconds: redis.call(&apos;PEXPIRE&apos;, key, window * 1000).</source>
        <translation>Hãy dùng EXPIRE với giây, hoặc PEXPIRE với millisecond: redis.call(&apos;PEXPIRE&apos;, key, window * 1000).</translation>
    </message>
    <message>
        <source>EXPIREAT is given a time in %1</source>
        <translation>EXPIREAT nhận một thời điểm tính bằng %1</translation>
    </message>
    <message>
        <source>EXPIREAT takes a Unix time in seconds; read as seconds, a time in %1 lies tens of thousands of years ahead, so idle keys never expire.</source>
        <translation>EXPIREAT nhận Unix time tính bằng giây; khi bị hiểu là giây, một thời điểm tính bằng %1 sẽ nằm ở hàng chục nghìn năm sau, nên các key không còn dùng đến sẽ không bao giờ hết hạn.</translation>
    </message>
    <message>
        <source>Use PEXPIREAT with a time in milliseconds, or PEXPIRE with the window.</source>
        <translation>Hãy dùng PEXPIREAT với thời điểm tính bằng millisecond, hoặc PEXPIRE với window.</translation>
    </message>
    <message>
        <source>PEXPIREAT is given a time in seconds</source>
        <translation>PEXPIREAT nhận một thời điểm tính bằng giây</translation>
    </message>
    <message>
        <source>PEXPIREAT takes a Unix time in milliseconds; a time in seconds read as milliseconds is in January 1970, so Redis deletes the key at once and the count starts from zero on every call.</source>
        <translation>PEXPIREAT nhận Unix time tính bằng millisecond; một thời điểm tính bằng giây mà bị hiểu là millisecond sẽ rơi vào tháng 1 năm 1970, nên Redis xoá key ngay lập tức và count bắt đầu lại từ 0 ở mọi lần gọi.</translation>
    </message>
    <message>
        <source>Use EXPIREAT with seconds, or PEXPIREAT with now * 1000.</source>
        <translation>Hãy dùng EXPIREAT với giây, hoặc PEXPIREAT với now * 1000.</translation>
    </message>
    <message>
        <source>Nothing removes the entries older than the window</source>
        <translation>Không có gì xoá các phần tử cũ hơn window</translation>
    </message>
    <message>
        <source>The count covers every entry the key holds, and no ZREMRANGEBYSCORE removes the old ones: the count keeps growing until the key expires, so clients are refused long after their requests left the window. This is not a sliding window.</source>
        <translation>Count tính mọi phần tử mà key đang giữ, và không có ZREMRANGEBYSCORE nào xoá các phần tử cũ: count cứ tăng mãi cho đến khi key hết hạn, nên client vẫn bị từ chối rất lâu sau khi các request của họ đã ra khỏi window. Đây không phải là sliding window.</translation>
    </message>
    <message>
        <source>Before counting: redis.call(&apos;ZREMRANGEBYSCORE&apos;, key, &apos;-inf&apos;, now - window); or count only the window: redis.call(&apos;ZCOUNT&apos;, key, &apos;(&apos; .. (now - window), &apos;+inf&apos;).</source>
        <translation>Trước khi đếm: redis.call(&apos;ZREMRANGEBYSCORE&apos;, key, &apos;-inf&apos;, now - window); hoặc chỉ đếm trong window: redis.call(&apos;ZCOUNT&apos;, key, &apos;(&apos; .. (now - window), &apos;+inf&apos;).</translation>
    </message>
    <message>
        <source>The script counts before removing expired entries</source>
        <translation>Script đếm trước khi xoá các phần tử đã hết hạn</translation>
    </message>
    <message>
        <source>Remove the expired entries first, then count; or count only the window with ZCOUNT key (now - window) +inf.</source>
        <translation>Hãy xoá các phần tử đã hết hạn trước, rồi mới đếm; hoặc chỉ đếm trong window bằng ZCOUNT key (now - window) +inf.</translation>
    </message>
    <message>
        <source>The ZSET never expires</source>
        <translation>ZSET không bao giờ hết hạn</translation>
    </message>
    <message>
        <source>Nothing sets a TTL on the key, so the sorted set of a client that stops sending requests stays in memory for ever.</source>
        <translation>Không có gì đặt TTL cho key, nên sorted set của một client đã ngừng gửi request sẽ nằm mãi trong bộ nhớ.</translation>
    </message>
    <message>
        <source>After ZADD: redis.call(&apos;PEXPIRE&apos;, key, window) (window in milliseconds).</source>
        <translation>Sau ZADD: redis.call(&apos;PEXPIRE&apos;, key, window) (window tính bằng millisecond).</translation>
    </message>
    <message>
        <source>The expiry is set before ZADD</source>
        <translation>Thời hạn được đặt trước ZADD</translation>
    </message>
    <message>
        <source>On a client&apos;s first request the key does not exist yet, so the expiry does nothing and ZADD then creates the key without a TTL: a client that sends one request and never returns leaves a key that never expires.</source>
        <translation>Ở request đầu tiên của một client, key chưa tồn tại, nên việc đặt thời hạn không có tác dụng gì, rồi ZADD tạo ra key không có TTL: một client gửi một request rồi không bao giờ quay lại sẽ để lại một key không bao giờ hết hạn.</translation>
    </message>
    <message>
        <source>Set the expiry after ZADD.</source>
        <translation>Hãy đặt thời hạn sau ZADD.</translation>
    </message>
    <message>
        <source>The scores and the window&apos;s bound are in different units</source>
        <translation>Score và cận của window dùng đơn vị khác nhau</translation>
    </message>
    <message>
        <source>ZADD writes scores in %1, but this bound is in %2, so the window covers the wrong entries: either nothing leaves it or everything does.</source>
        <translation>ZADD ghi score tính bằng %1, nhưng cận này lại tính bằng %2, nên window bao sai phần tử: hoặc không phần tử nào ra khỏi window, hoặc tất cả đều ra.</translation>
    </message>
    <message>
        <source>Use one unit for the scores, now and the window (convert with * 1000 or / 1000).</source>
        <translation>Hãy dùng cùng một đơn vị cho score, now và window (quy đổi bằng * 1000 hoặc / 1000).</translation>
    </message>
    <message>
        <source>A %1 timestamp is turned into text with 14 digits</source>
        <translation>Timestamp tính bằng %1 bị đổi thành chuỗi chỉ có 14 chữ số</translation>
    </message>
    <message>
        <source>Lua writes numbers as text with 14 significant digits (%.14g): a microsecond timestamp such as 1710000000000123 becomes 1.7100000000001e+15, so timestamps up to 100 microseconds apart give the same text%1.</source>
        <translation>Lua đổi số thành chuỗi chỉ với 14 chữ số có nghĩa (%.14g): một timestamp microsecond như 1710000000000123 trở thành 1.7100000000001e+15, nên các timestamp cách nhau tới 100 microsecond sẽ cho ra cùng một chuỗi%1.</translation>
    </message>
    <message>
        <source>, and here the same ZSET member</source>
        <translation>, và ở đây là cùng một member trong ZSET</translation>
    </message>
    <message>
        <source>Keep the text exact: use the string the caller sent (ARGV[n], without tonumber), or string.format(&apos;%d&apos;, now); for a unique member, add a request id.</source>
        <translation>Hãy giữ chuỗi chính xác: dùng chuỗi mà phía gọi đã gửi (ARGV[n], không qua tonumber), hoặc string.format(&apos;%d&apos;, now); để có member duy nhất, hãy thêm một request id.</translation>
    </message>
    <message>
        <source>Seconds and milliseconds are mixed</source>
        <translation>Giây và millisecond bị trộn lẫn</translation>
    </message>
    <message>
        <source>This line combines a value in %1 with a value in %2, so the result is off by a factor of 1000 and the window covers the wrong entries.</source>
        <translation>Dòng này kết hợp một giá trị tính bằng %1 với một giá trị tính bằng %2, nên kết quả lệch đi 1000 lần và window bao sai phần tử.</translation>
    </message>
    <message>
        <source>Convert one side first (* 1000 or / 1000) so both are in the same unit, and check --args: {now}/{window} are milliseconds, {now_s}/{window_s} seconds.</source>
        <translation>Hãy quy đổi một bên trước (* 1000 hoặc / 1000) để cả hai cùng một đơn vị, và kiểm tra --args: {now}/{window} tính bằng millisecond, {now_s}/{window_s} tính bằng giây.</translation>
    </message>
    <message>
        <source>ARGV[%1] is not in the call template</source>
        <translation>ARGV[%1] không có trong mẫu lệnh gọi</translation>
    </message>
    <message>
        <source>The script reads ARGV[%1], but the call template passes %2 argument(s), so ARGV[%1] is nil in every call.</source>
        <translation>Script đọc ARGV[%1], nhưng mẫu lệnh gọi chỉ truyền %2 tham số, nên ARGV[%1] là nil ở mọi lần gọi.</translation>
    </message>
    <message>
        <source>Describe every argument the script reads with --args, in its order, e.g. --args &quot;%1&quot;.</source>
        <translation>Hãy mô tả mọi tham số mà script đọc bằng --args, theo đúng thứ tự, ví dụ --args &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>KEYS[%1] is not in the call template</source>
        <translation>KEYS[%1] không có trong mẫu lệnh gọi</translation>
    </message>
    <message>
        <source>The script reads KEYS[%1], but the call template passes %2 key(s), so KEYS[%1] is nil in every call.</source>
        <translation>Script đọc KEYS[%1], nhưng mẫu lệnh gọi chỉ truyền %2 key, nên KEYS[%1] là nil ở mọi lần gọi.</translation>
    </message>
    <message>
        <source>Name every key the script reads with --keys, e.g. --keys &quot;{key} {key}:other&quot;.</source>
        <translation>Hãy liệt kê mọi key mà script đọc bằng --keys, ví dụ --keys &quot;{key} {key}:other&quot;.</translation>
    </message>
    <message>
        <source>ARGV[%1] is read as &quot;%2&quot; but the call passes %3</source>
        <translation>ARGV[%1] được đọc là &quot;%2&quot; nhưng lệnh gọi lại truyền %3</translation>
    </message>
    <message>
        <source>The script keeps ARGV[%1] in &quot;%2&quot;, but the call template puts %3 there: the findings and the live probe would describe calls the script never gets.</source>
        <translation>Script lưu ARGV[%1] vào &quot;%2&quot;, nhưng mẫu lệnh gọi lại đặt %3 ở vị trí đó: các phát hiện và lần chạy thử trên Redis sẽ mô tả những lệnh gọi mà script không bao giờ nhận được.</translation>
    </message>
    <message>
        <source>Give --args in the order the script reads ARGV, e.g. --args &quot;%1&quot;.</source>
        <translation>Hãy khai báo --args theo đúng thứ tự script đọc ARGV, ví dụ --args &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>math.randomseed() resets the server&apos;s generator</source>
        <translation>math.randomseed() đặt lại bộ sinh số ngẫu nhiên của server</translation>
    </message>
    <message>
        <source>On Redis 7 every script shares one generator: this call resets it, so scripts that rely on math.random() for unique members repeat the same numbers.</source>
        <translation>Trên Redis 7, mọi script dùng chung một bộ sinh số ngẫu nhiên: lệnh gọi này đặt lại nó, nên các script dựa vào math.random() để tạo member duy nhất sẽ lặp lại cùng những số đó.</translation>
    </message>
    <message>
        <source>Remove the math.randomseed() call.</source>
        <translation>Hãy bỏ lệnh gọi math.randomseed().</translation>
    </message>
    <message>
        <source>zsetlab could not follow the script here</source>
        <translation>zsetlab không đọc hiểu được script ở chỗ này</translation>
    </message>
    <message>
        <source>This line uses a form the doctor does not read (or a syntax error): findings about the lines after it may be missing. The live probe still runs the script.</source>
        <translation>Dòng này dùng một cú pháp mà Bác sĩ script không đọc được (hoặc có lỗi cú pháp): các phát hiện về những dòng phía sau có thể bị thiếu. Lần chạy thử trên Redis vẫn chạy script như bình thường.</translation>
    </message>
    <message>
        <source>Run with --live for evidence from Redis itself.</source>
        <translation>Hãy chạy với --live để có bằng chứng từ chính Redis.</translation>
    </message>
    <message>
        <source>the fixed name &apos;%1&apos;</source>
        <translation>tên cố định &apos;%1&apos;</translation>
    </message>
    <message>
        <source>ARGV[%1], an argument, not a key</source>
        <translation>ARGV[%1], một tham số, không phải key</translation>
    </message>
    <message>
        <source>built with text in front of it (&apos;prefix:&apos; .. KEYS[1] is another key than KEYS[1])</source>
        <translation>được tạo bằng cách ghép chuỗi vào phía trước (&apos;prefix:&apos; .. KEYS[1] là một key khác với KEYS[1])</translation>
    </message>
    <message>
        <source>built from arguments or constants, not from KEYS</source>
        <translation>được tạo từ tham số hoặc hằng số, không phải từ KEYS</translation>
    </message>
    <message>
        <source>%1 reaches beyond the script&apos;s keys</source>
        <translation>%1 vượt ra ngoài các key của script</translation>
    </message>
    <message>
        <source>%1 works on the whole database or server, not on a key the caller passes: it can read or change other clients&apos; data, Redis Cluster cannot route it, and zsetlab&apos;s live probe runs such a script only on a private redis-server of its own, never on the given one.</source>
        <translation>%1 tác động lên toàn bộ cơ sở dữ liệu hoặc server, chứ không phải lên một key mà phía gọi truyền vào: nó có thể đọc hoặc thay đổi dữ liệu của các client khác, Redis Cluster không định tuyến được nó, và lần chạy thử trên Redis của zsetlab chỉ chạy một script như vậy trên một redis-server riêng của chính zsetlab, không bao giờ chạy trên server được chỉ định.</translation>
    </message>
    <message>
        <source>A limiter needs only its own keys: remove the %1 call.</source>
        <translation>Rate limiter chỉ cần các key của riêng nó: hãy bỏ lệnh gọi %1.</translation>
    </message>
    <message>
        <source>%1 uses a key the caller does not pass in KEYS</source>
        <translation>%1 dùng một key mà phía gọi không truyền vào trong KEYS</translation>
    </message>
    <message>
        <source>The ZSET member is the server&apos;s time in microseconds</source>
        <translation>Member của ZSET là thời gian của server tính bằng microsecond</translation>
    </message>
    <message>
        <source>The member is redis.call(&apos;TIME&apos;) to the microsecond. A server runs one script at a time and a call takes longer than a microsecond, so two calls on one server never get the same member (the live probe&apos;s back-to-back calls are stored one each). What is left: a clock that steps back (an NTP correction, a failover to a replica with another clock) can give a member again, and then ZADD overwrites an entry and the count is one short.</source>
        <translation>Member là redis.call(&apos;TIME&apos;) chính xác đến từng microsecond. Một server chỉ chạy một script tại một thời điểm và một lệnh gọi mất hơn một microsecond, nên hai lệnh gọi trên cùng một server không bao giờ nhận cùng một member (các lệnh gọi liền nhau của lần chạy thử trên Redis đều được lưu, mỗi lệnh gọi một phần tử). Điều còn lại: đồng hồ bị lùi lại (do hiệu chỉnh NTP, do failover sang một replica có đồng hồ khác) có thể cho ra một member đã có, khi đó ZADD ghi đè lên một phần tử và count bị thiếu một.</translation>
    </message>
    <message>
        <source>Nothing is needed on one server. To be safe from clock steps as well, add a counter: t[1] .. t[2] .. &apos;-&apos; .. redis.call(&apos;INCR&apos;, KEYS[1] .. &apos;:seq&apos;).</source>
        <translation>Trên một server thì không cần làm gì. Để an toàn cả khi đồng hồ bị nhảy, hãy thêm một bộ đếm: t[1] .. t[2] .. &apos;-&apos; .. redis.call(&apos;INCR&apos;, KEYS[1] .. &apos;:seq&apos;).</translation>
    </message>
    <message>
        <source>The ZSET member is the caller&apos;s time in microseconds</source>
        <translation>Member của ZSET là thời gian của phía gọi tính bằng microsecond</translation>
    </message>
    <message>
        <source>The member is the time the caller sends, to the microsecond: unique only while no two requests carry the same microsecond. Two app servers can (their clocks are independent), and a client whose clock has only milliseconds and multiplies by 1000 makes every request of one millisecond collide.</source>
        <translation>Member là thời gian mà phía gọi gửi lên, chính xác đến từng microsecond: chỉ duy nhất khi không có hai request nào mang cùng một microsecond. Mà hai app server thì hoàn toàn có thể (đồng hồ của chúng độc lập với nhau), và một client có đồng hồ chỉ chính xác đến millisecond rồi nhân với 1000 sẽ khiến mọi request trong cùng một millisecond bị trùng nhau.</translation>
    </message>
    <message>
        <source>100-microsecond step</source>
        <translation>khoảng 100 microsecond</translation>
    </message>
    <message>
        <source>The ZSET member is the server&apos;s time in %1</source>
        <translation>Member của ZSET là thời gian của server tính bằng %1</translation>
    </message>
    <message>
        <source>rounded microseconds</source>
        <translation>microsecond đã bị làm tròn</translation>
    </message>
    <message>
        <source> (Lua keeps 14 digits when it writes a number as text, so a microsecond time becomes steps of 100 microseconds.)</source>
        <translation> (Lua chỉ giữ 14 chữ số khi đổi một số thành chuỗi, nên thời gian tính bằng microsecond bị gộp thành từng bước 100 microsecond.)</translation>
    </message>
    <message>
        <source>The count runs before ZREMRANGEBYSCORE, so it includes requests that have already left the window: the limiter refuses requests it should admit. If the script returns early on a refusal, nothing trims while the client is refused, so it stays refused until %1.</source>
        <translation>Việc đếm chạy trước ZREMRANGEBYSCORE, nên count tính cả những request đã ra khỏi window: rate limiter từ chối cả những request mà lẽ ra nó phải cho qua. Nếu script trả về sớm khi từ chối, thì trong lúc client bị từ chối không có gì cắt bỏ các phần tử cũ, nên client cứ bị từ chối cho đến khi %1.</translation>
    </message>
    <message>
        <source>someone deletes the key: nothing expires it</source>
        <translation>có người xoá key: không có gì làm key hết hạn</translation>
    </message>
    <message>
        <source>the key expires, a TTL after its last admitted request, rather than when its oldest request leaves the window</source>
        <translation>key hết hạn, tức là một khoảng TTL sau request cuối cùng được cho qua, chứ không phải khi request cũ nhất của nó ra khỏi window</translation>
    </message>
    <message>
        <source> (? marks an argument whose meaning the script does not show: fill it in yourself)</source>
        <translation> (? đánh dấu một tham số mà script không cho thấy ý nghĩa: hãy tự điền vào)</translation>
    </message>
    <message>
        <source>The file is compiled Lua, not a script</source>
        <translation>Tệp này là Lua đã biên dịch, không phải script</translation>
    </message>
    <message>
        <source>The file starts with the mark of precompiled Lua bytecode. Redis loads only Lua source text, so EVAL and SCRIPT LOAD refuse it, and the doctor cannot read it either.</source>
        <translation>Tệp bắt đầu bằng dấu hiệu của Lua bytecode đã biên dịch sẵn. Redis chỉ nạp mã nguồn Lua dạng văn bản, nên EVAL và SCRIPT LOAD đều từ chối nó, và Bác sĩ script cũng không đọc được.</translation>
    </message>
    <message>
        <source>Give the .lua source the bytecode was compiled from.</source>
        <translation>Hãy đưa vào tệp nguồn .lua đã dùng để biên dịch ra bytecode này.</translation>
    </message>
    <message>
        <source>The file is not a Lua script</source>
        <translation>Tệp này không phải là Lua script</translation>
    </message>
    <message>
        <source>The file holds binary data (NUL or other control bytes), not Lua source; Lua 5.1 stops at line %1: %2. Redis would refuse it as well.</source>
        <translation>Tệp chứa dữ liệu nhị phân (NUL hoặc các byte điều khiển khác), không phải mã nguồn Lua; Lua 5.1 dừng ở dòng %1: %2. Redis cũng sẽ từ chối nó.</translation>
    </message>
    <message>
        <source>Check the file name: give the limiter&apos;s .lua source file.</source>
        <translation>Hãy kiểm tra tên tệp: đưa vào tệp nguồn .lua của rate limiter.</translation>
    </message>
    <message>
        <source>Lua cannot compile the script</source>
        <translation>Lua không biên dịch được script</translation>
    </message>
    <message>
        <source>Lua 5.1 (the Lua that Redis runs) stops at line %1: %2. Redis refuses the whole script (SCRIPT LOAD and EVAL fail), so no request is ever counted, and the findings about the rest of the script may be incomplete.</source>
        <translation>Lua 5.1 (bản Lua mà Redis chạy) dừng ở dòng %1: %2. Redis từ chối toàn bộ script (SCRIPT LOAD và EVAL đều thất bại), nên không request nào được đếm, và các phát hiện về phần còn lại của script có thể chưa đầy đủ.</translation>
    </message>
    <message>
        <source>Fix the line the compiler names; a file that is not a Lua script (a binary, a wrong file) cannot be checked at all.</source>
        <translation>Hãy sửa dòng mà trình biên dịch chỉ ra; một tệp không phải Lua script (tệp nhị phân, tệp nhầm) thì hoàn toàn không kiểm tra được.</translation>
    </message>
    <message>
        <source>a key built from %1</source>
        <translation>một key được tạo từ %1</translation>
    </message>
    <message>
        <source>The key of this %1 is %2. Redis expects every key a script touches in KEYS: on Redis Cluster the call goes to the node that serves the slot of its KEYS, this key usually lies on another node, and the call fails there (&quot;Script attempted to access a non local key in a cluster node&quot;). A key that is the same for every caller is shared by all of them, and nobody can tell whose data it is. zsetlab&apos;s live probe runs such a script on a private redis-server of its own first, and on the given server only when that run touched no other key.</source>
        <translation>Key của lệnh %1 này: %2. Redis cần mọi key mà script động tới đều nằm trong KEYS: trên Redis Cluster, lệnh gọi được gửi tới node phục vụ slot của các KEYS, key này thường nằm trên một node khác, và lệnh gọi thất bại ở đó (&quot;Script attempted to access a non local key in a cluster node&quot;). Một key giống nhau với mọi phía gọi sẽ bị tất cả dùng chung, và không ai biết được dữ liệu trong đó là của ai. Lần chạy thử trên Redis của zsetlab chạy một script như vậy trên một redis-server riêng của chính zsetlab trước, và chỉ chạy trên server được chỉ định khi lần chạy đó không động tới key nào khác.</translation>
    </message>
    <message>
        <source>Pass the key in KEYS (--keys &quot;{key} {key}:other&quot;, then KEYS[2]) and give all of a call&apos;s keys one hash tag so that they share a slot, e.g. rl:{user42} and rl:{user42}:other.</source>
        <translation>Hãy truyền key đó trong KEYS (--keys &quot;{key} {key}:other&quot;, rồi dùng KEYS[2]) và cho mọi key của một lệnh gọi cùng một hash tag để chúng chung một slot, ví dụ rl:{user42} và rl:{user42}:other.</translation>
    </message>
    <message>
        <source> With the key %1 it is %2: the same hash tag, so the same slot (%3), and the call works on a cluster as long as the caller&apos;s key carries a hash tag.</source>
        <translation> Với key %1, key này là %2: cùng hash tag nên cùng slot (%3), và lệnh gọi chạy được trên cluster chừng nào key của phía gọi còn mang hash tag.</translation>
    </message>
    <message>
        <source> With the key %1 it is %2, in slot %3, while %1 is in slot %4: on a cluster this call fails unless one node happens to serve both slots.</source>
        <translation> Với key %1, key này là %2, nằm ở slot %3, còn %1 nằm ở slot %4: trên cluster, lệnh gọi này thất bại, trừ khi tình cờ có một node phục vụ cả hai slot.</translation>
    </message>
    <message>
        <source>Pass the key in KEYS (--keys &quot;%1 %2&quot;, then read KEYS[%3] instead of building it) and give all of a call&apos;s keys one hash tag so that they share a slot, e.g. rl:{user42} and rl:{user42}%4: a hash tag in the caller&apos;s key keeps %5 .. &apos;%4&apos; in the same slot.</source>
        <translation>Hãy truyền key đó trong KEYS (--keys &quot;%1 %2&quot;, rồi đọc KEYS[%3] thay vì tự tạo nó) và cho mọi key của một lệnh gọi cùng một hash tag để chúng chung một slot, ví dụ rl:{user42} và rl:{user42}%4: một hash tag trong key của phía gọi sẽ giữ %5 .. &apos;%4&apos; ở cùng slot.</translation>
    </message>
    <message>
        <source>Pass the key in KEYS (add it to --keys and read it from KEYS) and give all of a call&apos;s keys one hash tag so that they share a slot, e.g. rl:{user42} and rl:{user42}:seq: a hash tag in the caller&apos;s key keeps every key made by adding text after it in the same slot.</source>
        <translation>Hãy truyền key đó trong KEYS (thêm nó vào --keys và đọc nó từ KEYS) và cho mọi key của một lệnh gọi cùng một hash tag để chúng chung một slot, ví dụ rl:{user42} và rl:{user42}:seq: một hash tag trong key của phía gọi sẽ giữ mọi key được tạo bằng cách nối thêm chữ vào sau nó ở cùng slot.</translation>
    </message>
    <message>
        <source> Other lines that touch it: %1.</source>
        <translation> Các dòng khác cũng động tới key này: %1.</translation>
    </message>
    <message>
        <source>%1 uses %2, a key the caller does not pass in KEYS</source>
        <translation>%1 dùng %2, một key mà phía gọi không truyền vào trong KEYS</translation>
    </message>
    <message>
        <source>The script builds this key from %1 instead of receiving it. Redis asks for every key a script touches in KEYS, and Redis Cluster depends on it: the call goes to the node that serves the slot of its KEYS, and a built key hashes to a slot of its own unless it shares their hash tag. Such a key usually lies on another node, and the call stops at this line with &quot;Script attempted to access a non local key in a cluster node&quot; (on Redis 7, a script that starts with #!lua stops at any other slot); what the lines before it wrote stays written. On a single server it works.</source>
        <translation>Script tự tạo key này từ %1 thay vì nhận nó từ phía gọi. Redis cần mọi key mà script động tới đều nằm trong KEYS, và Redis Cluster dựa vào điều đó: lệnh gọi được gửi tới node phục vụ slot của các KEYS, còn một key tự tạo được băm vào một slot riêng, trừ khi nó có chung hash tag với các KEYS. Một key như vậy thường nằm trên một node khác, và lệnh gọi dừng ở dòng này với lỗi &quot;Script attempted to access a non local key in a cluster node&quot; (trên Redis 7, một script bắt đầu bằng #!lua dừng ở bất kỳ slot nào khác); những gì các dòng trước đó đã ghi thì vẫn giữ nguyên. Trên một server đơn lẻ thì script chạy được.</translation>
    </message>
    <message>
        <source>KEYS[%1] = %2 (slot %3)</source>
        <translation>KEYS[%1] = %2 (slot %3)</translation>
    </message>
    <message>
        <source>The keys of one call lie in different Redis Cluster slots</source>
        <translation>Các key của một lệnh gọi nằm ở những slot khác nhau của Redis Cluster</translation>
    </message>
    <message>
        <source>With the key %1 the call passes %2. Redis Cluster runs a script only when all its KEYS hash to one slot, so every call fails with &quot;CROSSSLOT Keys in request don&apos;t hash to the same slot&quot; before the script runs. On a single server it works.</source>
        <translation>Với key %1, lệnh gọi truyền vào %2. Redis Cluster chỉ chạy một script khi mọi KEYS của nó được băm vào cùng một slot, nên lệnh gọi nào cũng thất bại với lỗi &quot;CROSSSLOT Keys in request don&apos;t hash to the same slot&quot; trước khi script kịp chạy. Trên một server đơn lẻ thì script chạy được.</translation>
    </message>
    <message>
        <source>Give all of a call&apos;s keys one hash tag: only the text between { and } is hashed, so rl:{user42} and rl:{user42}:seq share the slot of user42. Every key here starts with {key}, so a hash tag in the key the application passes is enough.</source>
        <translation>Hãy cho mọi key của một lệnh gọi cùng một hash tag: chỉ phần chữ nằm giữa { và } được băm, nên rl:{user42} và rl:{user42}:seq chung slot của user42. Ở đây key nào cũng bắt đầu bằng {key}, nên chỉ cần một hash tag trong key mà ứng dụng truyền vào là đủ.</translation>
    </message>
    <message>
        <source>server.call runs on Valkey only</source>
        <translation>server.call chỉ chạy trên Valkey</translation>
    </message>
    <message>
        <source>Valkey 8 calls the table of commands `server` as well as `redis`. Redis 7 and 8 know only `redis`: there this line fails with &quot;Script attempted to access nonexistent global variable &apos;server&apos;&quot;, and no request is counted. zsetlab reads it as redis.call.</source>
        <translation>Valkey 8 gọi bảng lệnh là `server` bên cạnh `redis`. Redis 7 và 8 chỉ biết `redis`: ở đó dòng này lỗi với &quot;Script attempted to access nonexistent global variable &apos;server&apos;&quot;, và không request nào được đếm. zsetlab đọc nó như redis.call.</translation>
    </message>
    <message>
        <source>Also on line(s) %1.</source>
        <translation>Cũng ở (các) dòng %1.</translation>
    </message>
    <message>
        <source>Write redis.call (and redis.pcall): Valkey runs those too.</source>
        <translation>Hãy viết redis.call (và redis.pcall): Valkey cũng chạy được những lệnh đó.</translation>
    </message>
    <message>
        <source>Lua 5.1 (the Lua that Redis runs) stops at line %1: %2. FUNCTION LOAD refuses the whole library, so none of its functions can be called.</source>
        <translation>Lua 5.1 (bản Lua mà Redis chạy) dừng ở dòng %1: %2. FUNCTION LOAD từ chối cả thư viện, nên không hàm nào của nó gọi được.</translation>
    </message>
    <message>
        <source>FUNCTION LOAD refuses the library (&quot;%1&quot;), so none of its functions can be called.</source>
        <translation>FUNCTION LOAD từ chối thư viện (&quot;%1&quot;), nên không hàm nào của nó gọi được.</translation>
    </message>
    <message>
        <source>The library has no first line naming it</source>
        <translation>Thư viện thiếu dòng đầu tiên đặt tên cho nó</translation>
    </message>
    <message>
        <source>Start the file with a line such as #!lua name=ratelimit.</source>
        <translation>Hãy bắt đầu tệp bằng một dòng như #!lua name=ratelimit.</translation>
    </message>
    <message>
        <source>The library asks for the engine &quot;%1&quot;</source>
        <translation>Thư viện yêu cầu engine &quot;%1&quot;</translation>
    </message>
    <message>
        <source>Redis and Valkey run Lua libraries: start with #!lua name=...</source>
        <translation>Redis và Valkey chạy thư viện Lua: hãy bắt đầu bằng #!lua name=...</translation>
    </message>
    <message>
        <source>The library has no name</source>
        <translation>Thư viện không có tên</translation>
    </message>
    <message>
        <source>Name it on its first line: #!lua name=ratelimit.</source>
        <translation>Hãy đặt tên cho nó ở dòng đầu tiên: #!lua name=ratelimit.</translation>
    </message>
    <message>
        <source>The library registers no function zsetlab can read</source>
        <translation>Thư viện không đăng ký hàm nào mà zsetlab đọc được</translation>
    </message>
    <message>
        <source>A library is loaded only when it registers a function with redis.register_function(&apos;name&apos;, function(keys, args) ... end) or the table form {function_name = ..., callback = ...}; FUNCTION LOAD answers &quot;No functions registered&quot; otherwise. zsetlab follows those two forms only.</source>
        <translation>Một thư viện chỉ được nạp khi nó đăng ký một hàm bằng redis.register_function(&apos;name&apos;, function(keys, args) ... end) hoặc dạng bảng {function_name = ..., callback = ...}; nếu không, FUNCTION LOAD trả lời &quot;No functions registered&quot;. zsetlab chỉ theo được hai dạng đó.</translation>
    </message>
    <message>
        <source>Register the limiter: redis.register_function(&apos;limit&apos;, function(keys, args) ... end).</source>
        <translation>Hãy đăng ký rate limiter: redis.register_function(&apos;limit&apos;, function(keys, args) ... end).</translation>
    </message>
    <message>
        <source>%1 is nil in a function</source>
        <translation>%1 là nil trong một hàm</translation>
    </message>
    <message>
        <source>A function gets its keys and arguments as the parameters of its callback, not as KEYS and ARGV: FCALL fails here with &quot;Script attempted to access nonexistent global variable &apos;%1&apos;&quot;, and no request is counted.</source>
        <translation>Một hàm nhận key và tham số của nó qua các tham số của callback, không qua KEYS và ARGV: FCALL lỗi ở đây với &quot;Script attempted to access nonexistent global variable &apos;%1&apos;&quot;, và không request nào được đếm.</translation>
    </message>
    <message>
        <source>Read %1 instead.</source>
        <translation>Hãy đọc %1 thay vào đó.</translation>
    </message>
    <message>
        <source>%1 in a function flagged no-writes</source>
        <translation>%1 trong một hàm có cờ no-writes</translation>
    </message>
    <message>
        <source>The function %1 is registered with the flag no-writes, so Redis refuses every write it makes (&quot;Write commands are not allowed from read-only scripts&quot;): a limiter that cannot write its sorted set counts nothing.</source>
        <translation>Hàm %1 được đăng ký với cờ no-writes, nên Redis từ chối mọi lệnh ghi của nó (&quot;Write commands are not allowed from read-only scripts&quot;): một rate limiter không ghi được sorted set của mình thì không đếm được gì.</translation>
    </message>
    <message>
        <source>Drop no-writes from its flags; call it with FCALL, not FCALL_RO.</source>
        <translation>Hãy bỏ no-writes khỏi các cờ của nó; gọi nó bằng FCALL, không phải FCALL_RO.</translation>
    </message>
    <message>
        <source>The live probe disagrees, and its count wins: %1 calls sharing one %2 were stored as %1 members on Redis %3, so members did not collide in these calls. A reading cannot follow everything a script does, such as a loop that changes the member until it is free.</source>
        <translation>Lần chạy thử nói khác, và số đếm của nó được tin hơn: %1 lệnh gọi cùng một %2 được lưu thành %1 member trên Redis %3, nên các member không trùng nhau trong các lệnh gọi này. Việc đọc script không theo được mọi thứ script làm, chẳng hạn một vòng lặp đổi member cho tới khi tìm được chỗ trống.</translation>
    </message>
    <message>
        <source>now</source>
        <translation>now</translation>
    </message>
    <message>
        <source>moment</source>
        <translation>thời điểm</translation>
    </message>
    <message>
        <source>A %1 timestamp loses digits in the member, which stays unique</source>
        <translation>Timestamp %1 bị mất chữ số trong member, nhưng member vẫn là duy nhất</translation>
    </message>
    <message>
        <source>Lua writes numbers as text with 14 significant digits (%.14g), so the time part of this member is rounded to 100 microseconds. The member also carries a part that is unique per request, so no two requests share a member and the count is right; only the time written in the member is coarser than the score.</source>
        <translation>Lua ghi số thành chuỗi với 14 chữ số có nghĩa (%.14g), nên phần thời gian của member này bị làm tròn tới 100 microsecond. Member còn có một phần riêng cho từng request, nên không có hai request nào dùng chung member và số đếm vẫn đúng; chỉ có thời gian ghi trong member là thô hơn score.</translation>
    </message>
    <message>
        <source>Nothing is needed for the count. To keep the exact time in the member, use the string the caller sent (ARGV[n], without tonumber), or string.format(&apos;%d&apos;, now).</source>
        <translation>Số đếm không cần sửa gì. Để giữ đúng thời gian trong member, hãy dùng chuỗi mà phía gọi gửi (ARGV[n], không qua tonumber), hoặc string.format(&apos;%d&apos;, now).</translation>
    </message>
    <message>
        <source>The random part of the member takes only %L1 values</source>
        <translation>Phần ngẫu nhiên của member chỉ có %L1 giá trị</translation>
    </message>
    <message>
        <source>The member&apos;s random part has %L1 possible values, so members repeat by chance (the birthday bound): among %L2 requests %3, about %L4 draw a value another one already drew, and each of them overwrites an entry instead of adding one: a request not counted. Before Redis 7 it is worse: every call draws the same first number.</source>
        <translation>Phần ngẫu nhiên của member chỉ có %L1 giá trị khả dĩ, nên các member trùng nhau do tình cờ (giới hạn ngày sinh): trong %L2 request %3, khoảng %L4 request rút trúng một giá trị mà request khác đã rút, và mỗi request đó ghi đè một phần tử thay vì thêm mới: một request không được đếm. Trước Redis 7 còn tệ hơn: mọi lệnh gọi đều rút ra cùng một số đầu tiên.</translation>
    </message>
    <message>
        <source>that share the member&apos;s time</source>
        <translation>có cùng thời gian trong member</translation>
    </message>
    <message>
        <source>in one window</source>
        <translation>trong một window</translation>
    </message>
    <message>
        <source>Only the first %1 functions were read</source>
        <translation>Chỉ %1 hàm đầu tiên được đọc</translation>
    </message>
    <message>
        <source>The library registers %1 functions; the doctor reads the first %2 of them, each beside the library&apos;s own code. Choose one with --function (the Function choice) to read it.</source>
        <translation>Thư viện đăng ký %1 hàm; bác sĩ script đọc %2 hàm đầu tiên, mỗi hàm cùng với mã riêng của thư viện. Hãy chọn một hàm bằng --function (ô Hàm) để đọc nó.</translation>
    </message>
    <message>
        <source>Check the function your app calls by its name.</source>
        <translation>Hãy kiểm tra hàm mà ứng dụng của bạn gọi theo tên của nó.</translation>
    </message>
    <message>
        <source>No issue of these versions is known to zsetlab: what follows is the doctor&apos;s own reading.</source>
        <translation>zsetlab không biết lỗi nào của các phiên bản này: phần sau là những gì doctor tự đọc ra.</translation>
    </message>
    <message>
        <source>Known issue: %1 Reported at %2.</source>
        <translation>Lỗi đã biết: %1 Được báo tại %2.</translation>
    </message>
    <message>
        <source>Check it as %1 calls it: give --keys and --args in the order the library passes KEYS and ARGV (its source shows them), so that the findings below and the live probe describe real calls.</source>
        <translation>Hãy kiểm tra nó theo cách %1 gọi: đưa --keys và --args theo đúng thứ tự thư viện truyền KEYS và ARGV (mã nguồn của nó cho thấy), để các phát hiện bên dưới và phép thử trực tiếp mô tả đúng những lần gọi thật.</translation>
    </message>
    <message>
        <source>Upgrade to %1 %2 or later, which fixes it.</source>
        <translation>Hãy nâng lên %1 %2 hoặc mới hơn, bản đã sửa lỗi này.</translation>
    </message>
    <message>
        <source>It is fixed upstream by %1; zsetlab does not know the first release with it. Take a release that has it, or change the script as the findings below say.</source>
        <translation>Lỗi đã được sửa ở upstream bởi %1; zsetlab không biết bản phát hành đầu tiên có bản sửa. Hãy dùng một bản phát hành có nó, hoặc sửa script như các phát hiện bên dưới chỉ ra.</translation>
    </message>
    <message>
        <source>zsetlab knows of no release of %1 that fixes it: change the script as the findings below say.</source>
        <translation>zsetlab không biết bản phát hành nào của %1 sửa lỗi này: hãy sửa script như các phát hiện bên dưới chỉ ra.</translation>
    </message>
    <message>
        <source>This is the limiter of %1</source>
        <translation>Đây là limiter của %1</translation>
    </message>
    <message>
        <source>Its text is the one published at %1, byte for byte.</source>
        <translation>Văn bản của nó trùng từng byte với bản công bố tại %1.</translation>
    </message>
    <message>
        <source>Its code is the one published at %1; only its layout or comments differ.</source>
        <translation>Mã của nó là bản công bố tại %1; chỉ khác cách trình bày hoặc chú thích.</translation>
    </message>
    <message>
        <source>Derived from the limiter of %1</source>
        <translation>Dẫn xuất từ limiter của %1</translation>
    </message>
    <message>
        <source>Lines %1 are new or changed.</source>
        <translation>Các dòng %1 là mới hoặc đã đổi.</translation>
    </message>
    <message>
        <source>%1% of the code of the version published at %2 is here.</source>
        <translation>%1% mã của phiên bản công bố tại %2 có ở đây.</translation>
    </message>
    <message>
        <source>Check whether your changes keep the original&apos;s issue. %1</source>
        <translation>Hãy kiểm tra xem các thay đổi của bạn có giữ lại lỗi của bản gốc không. %1</translation>
    </message>
    <message>
        <source> Some services refuse it on a single server too: Dragonfly by default (&quot;script tried accessing undeclared key&quot;, unless the script is flagged allow-undeclared-keys), Upstash when the script asks for key locking (allow-key-locking), and Redis Cloud&apos;s clustered databases want every key of a script in KEYS, in one slot.</source>
        <translation> Một số dịch vụ từ chối cả trên một server: Dragonfly theo mặc định (&quot;script tried accessing undeclared key&quot;, trừ khi script có cờ allow-undeclared-keys), Upstash khi script yêu cầu khóa theo key (allow-key-locking), và cơ sở dữ liệu dạng cluster của Redis Cloud đòi mọi key của script nằm trong KEYS, cùng một slot.</translation>
    </message>
    <message>
        <source>The script is called without KEYS</source>
        <translation>Script được gọi mà không có KEYS</translation>
    </message>
    <message>
        <source>It touches keys but receives none in KEYS, so it is called with numkeys 0. Redis runs it on one server; AWS ElastiCache Serverless refuses every such call (&quot;Lua scripts without any input keys are not supported&quot;), Dragonfly refuses the keys (&quot;script tried accessing undeclared key&quot;), Upstash runs it under a lock of the whole database, and a cluster client sends it to any node, where the key is usually not.</source>
        <translation>Nó đụng tới key nhưng không nhận key nào trong KEYS, nên được gọi với numkeys 0. Redis chạy nó trên một server; AWS ElastiCache Serverless từ chối mọi lời gọi như vậy (&quot;Lua scripts without any input keys are not supported&quot;), Dragonfly từ chối các key đó (&quot;script tried accessing undeclared key&quot;), Upstash chạy nó dưới khóa toàn bộ cơ sở dữ liệu, còn client cluster gửi nó tới một node bất kỳ, nơi thường không có key.</translation>
    </message>
    <message>
        <source>Pass the keys the script touches in KEYS and read them as KEYS[1], KEYS[2], ...</source>
        <translation>Hãy truyền các key mà script đụng tới trong KEYS và đọc chúng bằng KEYS[1], KEYS[2], ...</translation>
    </message>
    <message>
        <source>%1 writes after TIME</source>
        <translation>%1 ghi sau TIME</translation>
    </message>
    <message>
        <source>Redis before 5.0 replicated a script by sending its text to replicas, and refused a write after TIME (&quot;Write commands not allowed after non deterministic commands&quot;): always before 3.2, and from 3.2 to 4.0 unless the script first called redis.replicate_commands(). Redis 5 and later replicate what the script does instead, and run it; so do the managed services built on them (none known to zsetlab refuses TIME itself).</source>
        <translation>Redis trước 5.0 nhân bản script bằng cách gửi văn bản của nó tới replica, và từ chối lệnh ghi sau TIME (&quot;Write commands not allowed after non deterministic commands&quot;): luôn luôn trước 3.2, và từ 3.2 tới 4.0 trừ khi script gọi redis.replicate_commands() trước. Redis 5 trở đi nhân bản những gì script làm, và chạy nó; các dịch vụ được quản lý dựa trên chúng cũng vậy (zsetlab không biết dịch vụ nào tự từ chối TIME).</translation>
    </message>
    <message>
        <source>For Redis 3.2 to 4.0, call redis.replicate_commands() on the script&apos;s first line; or pass the time in ARGV.</source>
        <translation>Với Redis 3.2 tới 4.0, hãy gọi redis.replicate_commands() ở dòng đầu script; hoặc truyền thời gian qua ARGV.</translation>
    </message>
    <message>
        <source>The live probe saw it: %1 calls at one %2 were stored as %3 entries on Redis %4, %5 of them drew a value drawn before.</source>
        <translation>Phép thử trực tiếp đã thấy điều này: %1 lần gọi cùng một %2 được lưu thành %3 mục trên Redis %4, %5 lần trong số đó rút trúng một giá trị đã rút trước.</translation>
    </message>
    <message>
        <source>Line %1 is new or changed.</source>
        <translation>Dòng %1 là mới hoặc đã đổi.</translation>
    </message>
    <message>
        <source>Redis calls added: %1.</source>
        <translation>Lệnh Redis được thêm: %1.</translation>
    </message>
    <message>
        <source>Redis calls removed: %1.</source>
        <translation>Lệnh Redis bị bỏ: %1.</translation>
    </message>
    <message>
        <source>Read and probe it as %1 calls it: %2.</source>
        <translation>Hãy đọc và thử nó theo cách %1 gọi: %2.</translation>
    </message>
    <message>
        <source>Redis calls made fewer times: %1.</source>
        <translation>Lệnh Redis được gọi ít lần hơn: %1.</translation>
    </message>
    <message>
        <source>Redis calls made more times: %1.</source>
        <translation>Lệnh Redis được gọi nhiều lần hơn: %1.</translation>
    </message>
    <message>
        <source>The live probe measured a wrong count on these calls (its verdict says where), as this issue predicts.</source>
        <translation>Lần chạy thử trực tiếp đã đo được số đếm sai trên các lệnh gọi này (kết luận của nó nói rõ ở đâu), đúng như lỗi này dự báo.</translation>
    </message>
    <message>
        <source>The live probe did not show it on these calls, so it stays a warning: it depends on how the library is called and on timing the probe did not meet.</source>
        <translation>Lần chạy thử trực tiếp không cho thấy lỗi này trên các lệnh gọi này, nên nó vẫn chỉ là cảnh báo: lỗi phụ thuộc vào cách thư viện được gọi và vào thời điểm mà lần chạy thử không gặp phải.</translation>
    </message>
    <message>
        <source>The ZSET member takes only %L1 values: a part of the time that repeats</source>
        <translation>Member của ZSET chỉ nhận %L1 giá trị: một phần của thời gian lặp đi lặp lại</translation>
    </message>
    <message>
        <source>The member is made from the time within a longer period (such as the %1 within the second), which takes %L2 values, and from parts that are the same in every call (an index, a constant). So every call in the same %1 writes the same member, and so do calls a whole period apart while both are in the window: ZADD updates an entry instead of adding one (it replies 0), and the count stays short. A burst within one %1 passes the limit.</source>
        <translation>Member được tạo từ thời gian bên trong một chu kỳ dài hơn (chẳng hạn %1 bên trong một giây), vốn chỉ nhận %L2 giá trị, cùng với các phần giống nhau ở mọi lệnh gọi (một chỉ số, một hằng số). Vì vậy mọi lệnh gọi trong cùng một %1 ghi cùng một member, và các lệnh gọi cách nhau đúng một số chu kỳ trọn vẹn cũng vậy khi cả hai còn trong cửa sổ: ZADD cập nhật một phần tử thay vì thêm mới (nó trả về 0), và số đếm bị thiếu. Một burst trong cùng một %1 sẽ vượt giới hạn.</translation>
    </message>
</context>
<context>
    <name>ScriptDoctorDialog</name>
    <message>
        <source>Script Doctor</source>
        <translation>Bác sĩ script</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Mở…</translation>
    </message>
    <message>
        <source>Open a Lua limiter script from a file.</source>
        <translation>Mở một Lua script rate limiter từ tệp.</translation>
    </message>
    <message>
        <source>Start from a built-in script…</source>
        <translation>Bắt đầu từ một script có sẵn…</translation>
    </message>
    <message>
        <source>Load one of zsetlab&apos;s own scripts (lua/) to compare with yours.</source>
        <translation>Nạp một script có sẵn của zsetlab (lua/) để so sánh với script của bạn.</translation>
    </message>
    <message>
        <source>Paste your limiter script here, or open a file.</source>
        <translation>Dán script rate limiter của bạn vào đây, hoặc mở một tệp.</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Dòng</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Mức độ</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>Phát hiện</translation>
    </message>
    <message>
        <source>KEYS in the order your script expects. Every key must start with {key}, so the script writes only under zsetlab:.</source>
        <translation>KEYS theo đúng thứ tự mà script của bạn cần. Mọi key phải bắt đầu bằng {key}, để script chỉ ghi vào các key dưới zsetlab:.</translation>
    </message>
    <message>
        <source>ARGV in the order your script expects: %1, or literals (quote text with spaces).</source>
        <translation>ARGV theo đúng thứ tự mà script của bạn cần: %1, hoặc giá trị cố định (đặt chuỗi có dấu cách trong dấu nháy).</translation>
    </message>
    <message>
        <source>&amp;KEYS</source>
        <translation>&amp;KEYS</translation>
    </message>
    <message>
        <source>&amp;ARGV</source>
        <translation>&amp;ARGV</translation>
    </message>
    <message>
        <source>Check the Script</source>
        <translation>Kiểm tra script</translation>
    </message>
    <message>
        <source>Read the script for mistakes that make ZSET limiters count wrong (nothing is run).</source>
        <translation>Đọc script để tìm những lỗi khiến rate limiter dùng ZSET đếm sai (không chạy gì cả).</translation>
    </message>
    <message>
        <source>Probe on Redis</source>
        <translation>Chạy thử trên Redis</translation>
    </message>
    <message>
        <source>Run the script on fresh zsetlab: keys: calls sharing one now, calls at several rates, with and without a limit; then read what it stored.</source>
        <translation>Chạy script trên các key zsetlab: mới tạo: các lệnh gọi dùng chung một now, các lệnh gọi ở nhiều tốc độ khác nhau, có và không có giới hạn; sau đó đọc lại những gì script đã lưu.</translation>
    </message>
    <message>
        <source>Use for Bursts</source>
        <translation>Dùng cho burst</translation>
    </message>
    <message>
        <source>Fire this script from the main window, alone or in compare mode.</source>
        <translation>Bắn script này từ cửa sổ chính, chạy riêng hoặc ở chế độ so sánh.</translation>
    </message>
    <message>
        <source>Open Script</source>
        <translation>Mở script</translation>
    </message>
    <message>
        <source>Lua scripts (*.lua);;All files (*)</source>
        <translation>Lua script (*.lua);;Tất cả các tệp (*)</translation>
    </message>
    <message>
        <source>Script Doctor — %1</source>
        <translation>Bác sĩ script — %1</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No known mistake found.&lt;/b&gt; A clean reading is not a proof: &lt;i&gt;Probe on Redis&lt;/i&gt; runs the script and counts what it stored.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Không tìm thấy lỗi nào đã biết.&lt;/b&gt; Đọc thấy ổn chưa phải là bằng chứng: &lt;i&gt;Chạy thử trên Redis&lt;/i&gt; sẽ chạy script và đếm những gì nó đã lưu.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Line %1: %2&lt;/h3&gt;&lt;pre&gt;%3&lt;/pre&gt;&lt;p&gt;%4&lt;/p&gt;&lt;p&gt;&lt;b&gt;Change:&lt;/b&gt; %5&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Dòng %1: %2&lt;/h3&gt;&lt;pre&gt;%3&lt;/pre&gt;&lt;p&gt;%4&lt;/p&gt;&lt;p&gt;&lt;b&gt;Cách sửa:&lt;/b&gt; %5&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Not connected to Redis: connect first (Burst &gt; Connect to Redis).&lt;/p&gt;</source>
        <translation>&lt;p&gt;Chưa kết nối tới Redis: hãy kết nối trước (Burst &gt; Kết nối tới Redis).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Probing on %1…&lt;/p&gt;</source>
        <translation>&lt;p&gt;Đang chạy thử trên %1…&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;The probe could not finish&lt;/h3&gt;&lt;p&gt;%1&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Không chạy thử xong được&lt;/h3&gt;&lt;p&gt;%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;It counts wrong&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Script này đếm sai&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;It counts right&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Script này đếm đúng&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Replies read as: %1. Redis %2.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Cách đọc phản hồi: %1. Redis %2.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>info</source>
        <translation>thông tin</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>cảnh báo</translation>
    </message>
    <message>
        <source>error</source>
        <translation>lỗi</translation>
    </message>
    <message>
        <source>&lt;h3&gt;It touches keys it was not given&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Script này động tới những key không được truyền vào&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;It counts right, but its expiry is wrong&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Script này đếm đúng, nhưng thời hạn bị đặt sai&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>optional, e.g. rl:{user42}</source>
        <translation>không bắt buộc, ví dụ rl:{user42}</translation>
    </message>
    <message>
        <source>A key as your application passes it for {key}: the findings then say whether the keys of one call share a Redis Cluster slot. Nothing is written to it.</source>
        <translation>Một key đúng như ứng dụng của bạn truyền vào cho {key}: khi đó các phát hiện sẽ cho biết các key của một lệnh gọi có chung một slot của Redis Cluster hay không. Không có gì được ghi vào key này.</translation>
    </message>
    <message>
        <source>&amp;Your key</source>
        <translation>Key của &amp;bạn</translation>
    </message>
    <message>
        <source>&lt;p&gt;The probe saw this script touch keys it was not given, so zsetlab does not fire it at a server. Pass every key in KEYS and probe again.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Lần chạy thử thấy script này động tới những key không được truyền vào, nên zsetlab không bắn nó vào server. Hãy truyền mọi key trong KEYS rồi chạy thử lại.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The script changed: &lt;i&gt;Check the Script&lt;/i&gt; and &lt;i&gt;Probe on Redis&lt;/i&gt; read it again.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Script đã thay đổi: &lt;i&gt;Kiểm tra script&lt;/i&gt; và &lt;i&gt;Chạy thử trên Redis&lt;/i&gt; sẽ đọc lại nó.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Every function (the probe calls the first)</source>
        <translation>Mọi hàm (lần chạy thử gọi hàm đầu tiên)</translation>
    </message>
    <message>
        <source>A Redis Functions library: the function to check and to probe with FCALL.</source>
        <translation>Một thư viện Redis Functions: hàm cần kiểm tra và chạy thử bằng FCALL.</translation>
    </message>
    <message>
        <source>&amp;Function</source>
        <translation>&amp;Hàm</translation>
    </message>
    <message>
        <source>Use as EVAL Script for Bursts</source>
        <translation>Dùng như script EVAL cho burst</translation>
    </message>
    <message>
        <source>Bursts and the Lua debugger run EVAL scripts, and the server&apos;s debugger cannot step a function (FCALL). zsetlab fires the library&apos;s code with a last line that calls the chosen function with KEYS and ARGV: the same counts, and the server&apos;s functions are left alone.</source>
        <translation>Burst và trình gỡ lỗi Lua chạy script EVAL, và trình gỡ lỗi của server không chạy từng bước được một hàm (FCALL). zsetlab bắn mã của thư viện cùng một dòng cuối gọi hàm đã chọn với KEYS và ARGV: đếm y như vậy, và các hàm trên server được để nguyên.</translation>
    </message>
    <message>
        <source>&lt;p&gt;The library registers no function zsetlab can read: there is nothing to fire.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Thư viện không đăng ký hàm nào mà zsetlab đọc được: không có gì để bắn.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 (%2 as an EVAL script)</source>
        <translation>%1 (%2 dưới dạng script EVAL)</translation>
    </message>
    <message>
        <source>&lt;p&gt;Function %1, called with FCALL.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Hàm %1, được gọi bằng FCALL.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Line %1, in %2: %3&lt;/h3&gt;&lt;pre&gt;%4&lt;/pre&gt;&lt;p&gt;%5&lt;/p&gt;&lt;p&gt;&lt;b&gt;Change:&lt;/b&gt; %6&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Dòng %1, trong %2: %3&lt;/h3&gt;&lt;pre&gt;%4&lt;/pre&gt;&lt;p&gt;%5&lt;/p&gt;&lt;p&gt;&lt;b&gt;Cách sửa:&lt;/b&gt; %6&lt;/p&gt;</translation>
    </message>
    <message>
        <source>optional, e.g. HSET {key}:config limit {limit}</source>
        <translation>không bắt buộc, ví dụ HSET {key}:config limit {limit}</translation>
    </message>
    <message>
        <source>Commands the probe runs before each scenario&apos;s first call, apart by &apos;;&apos;: what your app sets up once. They may touch only the probe&apos;s keys ({key}...).</source>
        <translation>Các lệnh mà lần chạy thử chạy trước lệnh gọi đầu tiên của mỗi kịch bản, cách nhau bằng &apos;;&apos;: những gì ứng dụng của bạn thiết lập một lần. Chúng chỉ được động tới các key của lần chạy thử ({key}...).</translation>
    </message>
    <message>
        <source>&amp;Setup</source>
        <translation>&amp;Thiết lập</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;a href=&quot;zsetlab:library-call&quot;&gt;Call it as %1 does&lt;/a&gt;: fill KEYS, ARGV and Setup with its call and read the script again.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;a href=&quot;zsetlab:library-call&quot;&gt;Gọi nó như %1&lt;/a&gt;: điền KEYS, ARGV và Thiết lập theo cách thư viện gọi, rồi đọc lại script.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Its replies did not say which calls were admitted&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Các phản hồi của nó không cho biết lệnh gọi nào được cho qua&lt;/h3&gt;</translation>
    </message>
</context>
<context>
    <name>ScriptKeyWatch</name>
    <message>
        <source>MONITOR failed on the private server: %1</source>
        <translation>MONITOR bị lỗi trên server riêng: %1</translation>
    </message>
    <message>
        <source>MONITOR on the private server stopped answering</source>
        <translation>MONITOR trên server riêng đã ngừng phản hồi</translation>
    </message>
    <message>
        <source>the script issued more than %1 distinct commands; only those were examined</source>
        <translation>script đã gửi hơn %1 lệnh khác nhau; chỉ chừng đó lệnh đầu tiên được xem xét</translation>
    </message>
</context>
<context>
    <name>ScriptProbe</name>
    <message>
        <source>1 entry</source>
        <translation>1 phần tử</translation>
    </message>
    <message>
        <source>%1 entries</source>
        <translation>%1 phần tử</translation>
    </message>
    <message>
        <source>with limit %1, </source>
        <translation>với giới hạn %1, </translation>
    </message>
    <message>
        <source>the replies do not say how many were admitted</source>
        <translation>các phản hồi không cho biết có bao nhiêu lệnh gọi được cho qua</translation>
    </message>
    <message>
        <source>%1 were admitted and %2 replies were unclear (%3)</source>
        <translation>%1 lệnh gọi được cho qua và %2 phản hồi không rõ ràng (%3)</translation>
    </message>
    <message>
        <source>1 was admitted</source>
        <translation>1 lệnh gọi được cho qua</translation>
    </message>
    <message>
        <source>%1 were admitted</source>
        <translation>%1 lệnh gọi được cho qua</translation>
    </message>
    <message>
        <source> (a correct limiter admits %1)</source>
        <translation> (rate limiter đúng sẽ cho qua %1)</translation>
    </message>
    <message>
        <source>left no sorted set under the keys they named</source>
        <translation>không để lại sorted set nào dưới các key đã chỉ định</translation>
    </message>
    <message>
        <source>were stored as %1</source>
        <translation>được lưu thành %1</translation>
    </message>
    <message>
        <source> (a correct limiter stores %1)</source>
        <translation> (rate limiter đúng sẽ lưu %1)</translation>
    </message>
    <message>
        <source>The probe was cancelled.</source>
        <translation>Lần chạy thử đã bị huỷ.</translation>
    </message>
    <message>
        <source>The script failed on call %1 of the %2 scenario: %3. The call was KEYS = [%4], ARGV = [%5]; fix the script, or describe its arguments with --keys and --args.</source>
        <translation>Script bị lỗi ở lần gọi thứ %1 của kịch bản %2: %3. Lệnh gọi đó là KEYS = [%4], ARGV = [%5]; hãy sửa script, hoặc mô tả các tham số của nó bằng --keys và --args.</translation>
    </message>
    <message>
        <source>%1 calls at %2 per ms (over %3)</source>
        <translation>%1 lệnh gọi với tốc độ %2 mỗi ms (trong %3)</translation>
    </message>
    <message>
        <source>%1 calls in one %2</source>
        <translation>%1 lệnh gọi trong cùng một %2</translation>
    </message>
    <message>
        <source>microsecond</source>
        <translation>microsecond</translation>
    </message>
    <message>
        <source>millisecond</source>
        <translation>millisecond</translation>
    </message>
    <message>
        <source>The sorted set has no expiry: the keys of idle clients stay for ever.</source>
        <translation>Sorted set không có thời hạn: key của các client không còn hoạt động sẽ nằm lại mãi mãi.</translation>
    </message>
    <message>
        <source>The sorted set was gone right after the calls: its expiry deletes it at once.</source>
        <translation>Sorted set đã biến mất ngay sau các lệnh gọi: thời hạn của nó khiến nó bị xoá ngay lập tức.</translation>
    </message>
    <message>
        <source>The sorted set expires after %1, %2 times the %3 window: idle keys linger.</source>
        <translation>Sorted set hết hạn sau %1, gấp %2 lần window %3: các key không còn dùng đến nằm lại quá lâu.</translation>
    </message>
    <message>
        <source>The sorted set expires after %1, before the %2 window ends: requests still in the window are forgotten.</source>
        <translation>Sorted set hết hạn sau %1, trước khi window %2 kết thúc: các request vẫn còn trong window bị quên mất.</translation>
    </message>
    <message>
        <source>The sorted set expires after %1 (window %2).</source>
        <translation>Sorted set hết hạn sau %1 (window %2).</translation>
    </message>
    <message>
        <source>Verdict: the script counts wrong in %1 of %2 scenarios.</source>
        <translation>Kết luận: script đếm sai ở %1/%2 kịch bản.</translation>
    </message>
    <message>
        <source>Verdict: the script counted right in every scenario, but its expiry is wrong.</source>
        <translation>Kết luận: script đếm đúng ở mọi kịch bản, nhưng thời hạn của nó bị đặt sai.</translation>
    </message>
    <message>
        <source>Verdict: the script counted right in every scenario.</source>
        <translation>Kết luận: script đếm đúng ở mọi kịch bản.</translation>
    </message>
    <message>
        <source> (between these calls the simulated time passed a TTL the script set, so zsetlab deleted the key as Redis would have; %1 time(s))</source>
        <translation> (giữa các lệnh gọi này, thời gian mô phỏng đã vượt qua một TTL do script đặt, nên zsetlab đã xoá key giống như Redis sẽ làm; %1 lần)</translation>
    </message>
    <message>
        <source>and %1 more</source>
        <translation>và %1 mục khác</translation>
    </message>
    <message>
        <source>%1 (no key: it reaches the whole database or server)</source>
        <translation>%1 (không có key: lệnh này tác động tới toàn bộ cơ sở dữ liệu hoặc server)</translation>
    </message>
    <message>
        <source> in database %1</source>
        <translation> trong cơ sở dữ liệu %1</translation>
    </message>
    <message>
        <source> (as given)</source>
        <translation> (như đã chỉ định)</translation>
    </message>
    <message>
        <source>%1 calls %2 apart, each after the previous one left the %3 window: %4%5.</source>
        <translation>%1 lệnh gọi cách nhau %2, mỗi lệnh gọi đến sau khi lệnh gọi trước đã ra khỏi window %3: %4%5.</translation>
    </message>
    <message>
        <source>%1 calls %2 apart, so that each finds only the one before it in the %3 window: %4%5.</source>
        <translation>%1 lệnh gọi cách nhau %2, sao cho mỗi lệnh gọi chỉ thấy đúng lệnh gọi ngay trước nó trong window %3: %4%5.</translation>
    </message>
    <message>
        <source>The script admits limit + 1 in every burst (%1 with limit %2): its comparison is off by one. A count taken before the request is added must refuse at count &gt;= limit (not count &gt; limit); a count that includes the request, at count &gt; limit.</source>
        <translation>Script cho qua limit + 1 request trong mọi burst (%1 với giới hạn %2): phép so sánh của nó bị lệch một. Count lấy trước khi thêm request phải từ chối khi count &gt;= limit (không phải count &gt; limit); còn count đã tính cả request thì từ chối khi count &gt; limit.</translation>
    </message>
    <message>
        <source>Besides its own keys the script touched: %1. Pass every key a script uses in KEYS: Redis Cluster refuses other keys (&quot;Script attempted to access a non local key&quot;), and a key shared by every caller is changed by all of them.</source>
        <translation>Ngoài các key của chính nó, script còn động tới: %1. Hãy truyền mọi key mà script dùng trong KEYS: Redis Cluster từ chối các key khác (&quot;Script attempted to access a non local key&quot;), và một key dùng chung cho mọi phía gọi sẽ bị tất cả bọn họ thay đổi.</translation>
    </message>
    <message>
        <source>Verdict: the script counted right in every scenario, but it touches keys it was not given.</source>
        <translation>Kết luận: script đếm đúng ở mọi kịch bản, nhưng nó động tới những key không được truyền vào.</translation>
    </message>
    <message>
        <source>zsetlab runs a script on a private redis-server of its own first, to see which keys it touches, and cannot start one: %1</source>
        <translation>zsetlab chạy script trên một redis-server riêng của chính mình trước để xem script động tới những key nào, nhưng không khởi động được server đó: %1</translation>
    </message>
    <message>
        <source>On a private redis-server that zsetlab started to try the script first (%1 saw nothing of it): %2</source>
        <translation>Trên một redis-server riêng mà zsetlab khởi động để chạy thử script trước (%1 không bị động tới chút nào): %2</translation>
    </message>
    <message>
        <source>it touched keys other than the ones the probe gave it</source>
        <translation>script đã động tới những key khác với các key mà lần chạy thử đưa cho nó</translation>
    </message>
    <message>
        <source>The probe ran only on a private redis-server that zsetlab started (Redis %1), not on %2: %3. That private server, with everything the script left on it, is gone.</source>
        <translation>Lần chạy thử chỉ chạy trên một redis-server riêng do zsetlab khởi động (Redis %1), không chạy trên %2: %3. Server riêng đó, cùng mọi thứ script để lại trên nó, đã không còn nữa.</translation>
    </message>
    <message>
        <source>A private redis-server (Redis %1) ran the same calls first: the script touched no key but its own, so the probe ran it on %2.</source>
        <translation>Một redis-server riêng (Redis %1) đã chạy các lệnh gọi y hệt trước: script không động tới key nào ngoài các key của chính nó, nên lần chạy thử đã chạy nó trên %2.</translation>
    </message>
    <message>
        <source>MONITOR could not tell every key the script touched (%1)</source>
        <translation>MONITOR không cho biết được mọi key mà script đã động tới (%1)</translation>
    </message>
    <message>
        <source>the script made %1 different keys under the key it was given (such as %2), a new one per call, which zsetlab could not name to delete on a server it did not start</source>
        <translation>script đã tạo ra %1 key khác nhau dưới key được truyền vào (chẳng hạn %2), mỗi lệnh gọi một key mới, và zsetlab không xác định được tên chúng để xoá trên một server mà nó không khởi động</translation>
    </message>
    <message>
        <source> It was running line %1 of the %2 scenario&apos;s call %3.</source>
        <translation> Khi đó script đang chạy dòng %1 trong lần gọi thứ %3 của kịch bản %2.</translation>
    </message>
    <message>
        <source>On a private Redis Cluster of %1 masters that zsetlab started to try the script first (%2 saw nothing of it): %3</source>
        <translation>Trên một Redis Cluster riêng gồm %1 master do zsetlab khởi động để thử script trước (%2 không thấy gì cả): %3</translation>
    </message>
    <message>
        <source>A private Redis Cluster (Redis %1) ran the same calls first: the script touched no key but its own, so the probe ran it on %2.</source>
        <translation>Một Redis Cluster riêng (Redis %1) đã chạy trước cùng các lời gọi: script không chạm vào khóa nào ngoài khóa của nó, nên phép thử đã chạy nó trên %2.</translation>
    </message>
    <message>
        <source>On a Redis Cluster a script may touch only keys in the slot of the keys it is given, and this one touched %1, a key in another slot (%2) than the keys it was given (%3). It ran only because one master serves both slots; where they are apart it fails with &quot;non local key&quot;. Pass every key the script uses in KEYS, with the hash tag of the first one.</source>
        <translation>Trên Redis Cluster, một script chỉ được chạm vào các khóa cùng slot với các khóa nó được truyền vào; script này đã chạm vào %1, một khóa ở slot khác (%2) với các khóa được truyền (%3). Nó chạy được chỉ vì một master phục vụ cả hai slot; khi chúng ở hai master khác nhau, nó lỗi &quot;non local key&quot;. Hãy truyền mọi khóa script dùng qua KEYS, với cùng hash tag của khóa đầu tiên.</translation>
    </message>
    <message>
        <source>The probe ran only on a private redis-server that zsetlab started (Redis %1), not on %2: there a script of yours runs as a temporary ACL user that may touch only the probe&apos;s keys, and %3. Connect as a user that may run ACL SETUSER, or give --trust-script to run it there with every right of the connection&apos;s user.</source>
        <translation>Phép thăm dò chỉ chạy trên một redis-server riêng do zsetlab khởi động (Redis %1), không chạy trên %2: ở đó script của bạn chạy dưới một người dùng ACL tạm thời chỉ được chạm vào các key của phép thăm dò, và %3. Hãy kết nối bằng một người dùng được phép chạy ACL SETUSER, hoặc dùng --trust-script để chạy nó ở đó với mọi quyền của người dùng kết nối.</translation>
    </message>
    <message>
        <source>zsetlab could not make the temporary ACL user the script runs as on %1: %2</source>
        <translation>zsetlab không tạo được người dùng ACL tạm thời để chạy script trên %1: %2</translation>
    </message>
    <message>
        <source>On %1 the script reached for %2, outside the probe&apos;s own keys, although on the private server it had not (a script may behave differently later, or elsewhere). Redis refused it: the script ran as the temporary ACL user %3, which may touch only the probe&apos;s keys, so nothing there was changed.</source>
        <translation>Trên %1 script đã chạm tới %2, nằm ngoài các key của phép thăm dò, dù trên server riêng nó không làm vậy (một script có thể cư xử khác về sau, hoặc ở nơi khác). Redis đã từ chối: script chạy dưới người dùng ACL tạm thời %3, chỉ được chạm vào các key của phép thăm dò, nên không có gì ở đó bị thay đổi.</translation>
    </message>
    <message>
        <source>The probe called the function %1 with FCALL on a private redis-server that zsetlab started (Redis %2), not on %3: loading a library (FUNCTION LOAD) changes the functions every client of a server sees, so zsetlab loads one only on a server of its own.</source>
        <translation>Lần chạy thử đã gọi hàm %1 bằng FCALL trên một redis-server riêng do zsetlab khởi động (Redis %2), không phải trên %3: nạp một thư viện (FUNCTION LOAD) sẽ thay đổi các hàm mà mọi client của server nhìn thấy, nên zsetlab chỉ nạp thư viện trên server của chính nó.</translation>
    </message>
    <message>
        <source>--setup &quot;%1&quot;: %2</source>
        <translation>--setup &quot;%1&quot;: %2</translation>
    </message>
    <message>
        <source>--setup &quot;%1&quot;: give a command and its arguments, e.g. &quot;HSET {key}:config limit {limit}&quot;</source>
        <translation>--setup &quot;%1&quot;: hãy ghi một lệnh và các tham số của nó, ví dụ &quot;HSET {key}:config limit {limit}&quot;</translation>
    </message>
    <message>
        <source>--setup &quot;%1&quot;: a setup command works on the probe&apos;s keys only; name one that starts with {key}, e.g. {key}:config</source>
        <translation>--setup &quot;%1&quot;: lệnh thiết lập chỉ làm việc trên các key của lần chạy thử; hãy ghi một key bắt đầu bằng {key}, ví dụ {key}:config</translation>
    </message>
    <message>
        <source>The setup command &quot;%1&quot; (%2) was not run for the %3 scenario: %4</source>
        <translation>Lệnh thiết lập &quot;%1&quot; (%2) không được chạy cho kịch bản %3: %4</translation>
    </message>
    <message>
        <source>Redis cannot tell its keys (%1)</source>
        <translation>Redis không cho biết được các key của nó (%1)</translation>
    </message>
    <message>
        <source>it names %1, which is not a key of the probe (they start with %2)</source>
        <translation>lệnh ghi %1, không phải một key của lần chạy thử (các key đó bắt đầu bằng %2)</translation>
    </message>
    <message>
        <source>it names no key</source>
        <translation>lệnh không ghi key nào</translation>
    </message>
    <message>
        <source>Calls over the limit got an error reply (&quot;%1&quot;): the script&apos;s way of refusing, read as refusals.</source>
        <translation>Các lệnh gọi vượt giới hạn nhận một phản hồi lỗi (&quot;%1&quot;): đó là cách script từ chối, nên được hiểu là bị từ chối.</translation>
    </message>
    <message>
        <source>%1 calls in one %2, to see the member&apos;s random part (%L3 values) repeat: they %4; %L5 drew a value drawn before, where the birthday bound expects about %L6.</source>
        <translation>%1 lần gọi trong cùng một %2, để thấy phần ngẫu nhiên của member (%L3 giá trị) lặp lại: chúng %4; %L5 lần rút trúng một giá trị đã rút trước, trong khi cận sinh nhật dự đoán khoảng %L6.</translation>
    </message>
    <message>
        <source>Verdict: nothing the probe could read went wrong, but the replies did not say which calls were admitted, so there is no verdict on admissions. Say how they read with --reply STYLE, or STYLE@N for the Nth element of an array reply (e.g. limited@2 for {&quot;true&quot;, wait}, allowed=value for a slot&apos;s name or nil).</source>
        <translation>Kết luận: không có gì sai trong những gì lần chạy thử đọc được, nhưng các phản hồi không cho biết lệnh gọi nào được cho qua, nên không có kết luận nào về việc cho qua. Hãy chỉ rõ cách đọc chúng bằng --reply STYLE, hoặc STYLE@N cho phần tử thứ N của một phản hồi dạng mảng (ví dụ limited@2 cho {&quot;true&quot;, wait}, allowed=value cho tên một chỗ hoặc nil).</translation>
    </message>
    <message>
        <source>zsetlab cannot read the replies: %1. The numbers below come from what Redis stored alone.</source>
        <translation>zsetlab không đọc được các phản hồi: %1. Các con số dưới đây chỉ lấy từ những gì Redis đã lưu.</translation>
    </message>
    <message>
        <source>the script reads the server&apos;s clock (TIME)</source>
        <translation>script đọc đồng hồ của server (TIME)</translation>
    </message>
    <message>
        <source>the script tells time by its keys&apos; TTL (PTTL)</source>
        <translation>script biết thời gian qua TTL của các key của nó (PTTL)</translation>
    </message>
    <message>
        <source>the script reads no clock: its window is its keys&apos; expiry</source>
        <translation>script không đọc đồng hồ nào: cửa sổ của nó chính là thời hạn của các key</translation>
    </message>
    <message>
        <source>%1 calls sent back to back (%2; %3)</source>
        <translation>%1 lệnh gọi gửi liên tiếp (%2; %3)</translation>
    </message>
    <message>
        <source>%1 of the first and %2 of the later ones were admitted</source>
        <translation>%1 lệnh gọi đợt đầu và %2 lệnh gọi đợt sau được cho qua</translation>
    </message>
    <message>
        <source> (a correct limiter admits %1 each time: a new window starts with the whole limit)</source>
        <translation> (một limiter đúng cho qua %1 mỗi đợt: một cửa sổ mới bắt đầu với trọn giới hạn)</translation>
    </message>
    <message>
        <source>In real time, with a %1 window: %2 calls back to back, then, once the server&apos;s clock had moved %3 on, %4 more: %5.</source>
        <translation>Theo thời gian thực, với cửa sổ %1: %2 lệnh gọi liên tiếp, rồi khi đồng hồ của server đã chạy thêm %3, thêm %4 lệnh gọi nữa: %5.</translation>
    </message>
    <message>
        <source>the reply does not say whether it was admitted</source>
        <translation>phản hồi không cho biết lệnh gọi có được cho qua hay không</translation>
    </message>
    <message>
        <source>the burst already passed the limit, so this call says nothing of how capacity comes back</source>
        <translation>đợt burst đã vượt giới hạn rồi, nên lệnh gọi này không nói được gì về cách dung lượng được trả lại</translation>
    </message>
    <message>
        <source>it was admitted: the limiter gives capacity back as time passes (as a token bucket, GCRA or a leaky bucket does)</source>
        <translation>nó được cho qua: limiter trả lại dung lượng dần theo thời gian (như token bucket, GCRA hay leaky bucket)</translation>
    </message>
    <message>
        <source>it was refused: the limiter frees capacity only when whole requests leave the window (as a sliding log, a fixed window or an expiring counter does)</source>
        <translation>nó bị từ chối: limiter chỉ giải phóng dung lượng khi cả request rời khỏi cửa sổ (như sliding log, fixed window hay một bộ đếm có thời hạn)</translation>
    </message>
    <message>
        <source>%1 calls back to back, then one more when the server&apos;s clock had moved %2 on, half the %3 window: %4.</source>
        <translation>%1 lệnh gọi liên tiếp, rồi thêm một lệnh gọi khi đồng hồ của server đã chạy thêm %2, nửa cửa sổ %3: %4.</translation>
    </message>
    <message>
        <source>One call, then the server&apos;s clock waited out %1 (the %2 window and a margin): </source>
        <translation>Một lệnh gọi, rồi chờ đồng hồ của server chạy hết %1 (cửa sổ %2 và một khoảng dư): </translation>
    </message>
    <message>
        <source>the keys it wrote were gone, as they should be.</source>
        <translation>các key nó đã ghi đều đã biến mất, đúng như phải thế.</translation>
    </message>
    <message>
        <source>%1 of its keys were still there, one without expiry: the keys of idle clients stay for ever.</source>
        <translation>%1 key của nó vẫn còn, trong đó có một key không có thời hạn: key của các client không còn hoạt động sẽ ở lại mãi mãi.</translation>
    </message>
    <message>
        <source>%1 of its keys were still there, for %2 more.</source>
        <translation>%1 key của nó vẫn còn, thêm %2 nữa mới hết hạn.</translation>
    </message>
    <message>
        <source>%1 calls %2 apart %3%4; the replies read as %5.</source>
        <translation>%1 lệnh gọi cách nhau %2 %3%4; các phản hồi được hiểu là %5.</translation>
    </message>
    <message>
        <source>%1 (learned from the calls under a limit: the first ones, admitted, all had the one, later ones the other)</source>
        <translation>%1 (học được từ các lệnh gọi dưới một giới hạn: những lệnh gọi đầu, được cho qua, đều mang loại giá trị thứ nhất, các lệnh gọi sau mang loại kia)</translation>
    </message>
    <message>
        <source>element %1 of the reply: %2</source>
        <translation>phần tử thứ %1 của phản hồi: %2</translation>
    </message>
    <message>
        <source>The replies read as %1.</source>
        <translation>Các phản hồi được hiểu là %1.</translation>
    </message>
    <message>
        <source>The call carries no window, so the probe could not shorten one to run the script in real time: how long its entries or slots last is the script&apos;s own.</source>
        <translation>Lệnh gọi không mang theo cửa sổ nào, nên lần chạy thử không thể rút ngắn nó để chạy script theo thời gian thực: các phần tử hay các chỗ của nó tồn tại bao lâu là do chính script quyết định.</translation>
    </message>
    <message>
        <source>The server stopped answering while the probe waited on its clock in the %1 scenario.</source>
        <translation>Server ngừng trả lời trong khi lần chạy thử chờ theo đồng hồ của nó ở kịch bản %1.</translation>
    </message>
    <message>
        <source>zsetlab could not make the temporary ACL user the script runs as: %1</source>
        <translation>zsetlab không tạo được người dùng ACL tạm thời để chạy script: %1</translation>
    </message>
    <message>
        <source>it ran %1, which reaches beyond the probe&apos;s own keys (another database, another server, or the server&apos;s state); Redis refused it, as the script ran as a temporary ACL user that may run only the commands a limiter needs on its keys</source>
        <translation>nó đã chạy %1, vốn vươn ra ngoài các key của lần thăm dò (một database khác, một server khác, hoặc trạng thái của server); Redis đã từ chối, vì script chạy dưới một người dùng ACL tạm thời chỉ được chạy các lệnh mà một limiter cần trên các key của nó</translation>
    </message>
    <message>
        <source>On %1 the script ran %2, which reaches beyond the probe&apos;s own keys (another database, another server, or the server&apos;s state). Redis refused it: the script ran as the temporary ACL user %3, which may run only the commands a limiter needs on its keys, so nothing there was changed.</source>
        <translation>Trên %1 script đã chạy %2, lệnh vươn ra ngoài các key của phép thử (một database khác, một server khác, hoặc trạng thái của server). Redis đã từ chối: script chạy dưới người dùng ACL tạm thời %3, chỉ được chạy các lệnh một limiter cần trên key của nó, nên không có gì ở đó bị thay đổi.</translation>
    </message>
</context>
<context>
    <name>ScriptSandbox</name>
    <message>
        <source>the connection&apos;s user may not create ACL users on %1 (ACL SETUSER: %2)</source>
        <translation>người dùng của kết nối không được tạo người dùng ACL trên %1 (ACL SETUSER: %2)</translation>
    </message>
    <message>
        <source>%1 has no ACL users (Redis %2; they came with Redis 6.0)</source>
        <translation>%1 không có người dùng ACL (Redis %2; chúng có từ Redis 6.0)</translation>
    </message>
    <message>
        <source>ACL SETUSER on %1 failed: %2</source>
        <translation>ACL SETUSER trên %1 thất bại: %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>zsetlab could not delete its temporary ACL user %1 on %2; it cannot log in (its password is gone), and redis-cli ACL DELUSER %1 removes it.</source>
        <translation>zsetlab không xoá được người dùng ACL tạm thời %1 trên %2; nó không thể đăng nhập (mật khẩu đã mất), và redis-cli ACL DELUSER %1 sẽ xoá nó.</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>không có trả lời</translation>
    </message>
    <message>
        <source>a script runs in a sandbox on database 0 only: Redis&apos;s ACL rules cannot keep a user to one database, so the sandbox denies SELECT, and database %1 cannot be reached without it. Use database 0 (/0 in the URL)</source>
        <translation>một script chỉ chạy trong sandbox trên database 0: quy tắc ACL của Redis không thể giới hạn một người dùng trong một database, nên sandbox cấm SELECT, và không có nó thì không tới được database %1. Hãy dùng database 0 (/0 trong URL)</translation>
    </message>
    <message>
        <source>zsetlab could not read the ACL LOG on %1, so it cannot tell which keys or commands Redis refused the script there.</source>
        <translation>zsetlab không đọc được ACL LOG trên %1, nên không thể biết Redis đã từ chối script những key hay lệnh nào ở đó.</translation>
    </message>
    <message>
        <source>zsetlab could not check that it is gone: %1</source>
        <translation>zsetlab không kiểm tra được rằng nó đã bị xóa: %1</translation>
    </message>
    <message>
        <source>it was there again after %1 ACL DELUSER</source>
        <translation>nó lại xuất hiện sau %1 lần ACL DELUSER</translation>
    </message>
</context>
<context>
    <name>ScriptTools</name>
    <message>
        <source>%1 is ready: press F5 to fire it.</source>
        <translation>%1 đã sẵn sàng: nhấn F5 để bắn.</translation>
    </message>
    <message>
        <source>%1 on %2, now = %3 (the last request&apos;s millisecond)</source>
        <translation>%1 trên %2, now = %3 (millisecond của request cuối cùng)</translation>
    </message>
</context>
<context>
    <name>ScriptView</name>
    <message>
        <source>Limiter scripts</source>
        <translation>Các script rate limiter</translation>
    </message>
    <message>
        <source>The article&apos;s flow, in every script: &lt;b&gt;1. remove&lt;/b&gt; old entries → &lt;b&gt;2. add&lt;/b&gt; this request → &lt;b&gt;3. count&lt;/b&gt; → &lt;b&gt;4. expire&lt;/b&gt;. Only the member changes.</source>
        <translation>Script nào cũng theo đúng flow trong bài viết: &lt;b&gt;1. xoá&lt;/b&gt; phần tử cũ → &lt;b&gt;2. thêm&lt;/b&gt; request này → &lt;b&gt;3. đếm&lt;/b&gt; → &lt;b&gt;4. đặt hạn&lt;/b&gt;. Chỉ có member là thay đổi.</translation>
    </message>
    <message>
        <source>The unique strategy shown on the right.</source>
        <translation>Cách tạo member duy nhất được hiển thị ở bên phải.</translation>
    </message>
    <message>
        <source>lua/now.lua: member = now (the bug)</source>
        <translation>lua/now.lua: member = now (lỗi)</translation>
    </message>
    <message>
        <source>Marked: the code lines of %1 that differ from now.lua (lines %2).</source>
        <translation>Được đánh dấu: các dòng code của %1 khác với now.lua (dòng %2).</translation>
    </message>
</context>
<context>
    <name>ServerBar</name>
    <message>
        <source>Connect…</source>
        <translation>Kết nối…</translation>
    </message>
    <message>
        <source>Use another Redis server: a URL, or host, port or socket, user, password and database.</source>
        <translation>Dùng một server Redis khác: một URL, hoặc host, port hay socket, người dùng, mật khẩu và cơ sở dữ liệu.</translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation>Ngắt kết nối</translation>
    </message>
    <message>
        <source>Stop using this server (a private server is stopped and removed).</source>
        <translation>Ngừng dùng server này (server riêng sẽ bị dừng và xoá đi).</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>Chưa kết nối.</translation>
    </message>
    <message>
        <source>Not connected: %1</source>
        <translation>Chưa kết nối: %1</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Đang kết nối…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Lost the connection&lt;/b&gt; to %1: %2&lt;br&gt;The results stay on screen; zsetlab reconnects by itself when the server answers again.</source>
        <translation>&lt;b&gt;Mất kết nối&lt;/b&gt; tới %1: %2&lt;br&gt;Kết quả vẫn được giữ trên màn hình; zsetlab sẽ tự kết nối lại khi server phản hồi trở lại.</translation>
    </message>
</context>
<context>
    <name>ServerSession</name>
    <message>
        <source>No Redis server answers at 127.0.0.1:6379 and redis-server is not installed. Install redis-server (Debian: apt-get install redis-server) or connect to another server.</source>
        <translation>Không có server Redis nào phản hồi ở 127.0.0.1:6379 và redis-server chưa được cài. Hãy cài redis-server (Debian: apt-get install redis-server) hoặc kết nối tới một server khác.</translation>
    </message>
    <message>
        <source>given server</source>
        <translation>server được chỉ định</translation>
    </message>
    <message>
        <source>local server</source>
        <translation>server cục bộ</translation>
    </message>
    <message>
        <source>private server</source>
        <translation>server riêng</translation>
    </message>
    <message>
        <source>zsetlab&apos;s private Redis server stopped. A new, empty one is starting on the same socket.</source>
        <translation>Server Redis riêng của zsetlab đã dừng. Một server mới, trống, đang khởi động trên cùng socket đó.</translation>
    </message>
    <message>
        <source>zsetlab&apos;s private Redis server stopped four times within a minute; it is not started again. Connect to another server (Burst &gt; Connect to Redis).</source>
        <translation>Server Redis riêng của zsetlab đã dừng bốn lần trong vòng một phút; nó sẽ không được khởi động lại nữa. Hãy kết nối tới một server khác (Burst &gt; Kết nối tới Redis).</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %2 · cluster of %n masters: %3</source>
        <translation>
            <numerusform>%1 · %2 · cluster gồm %n master: %3</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
</context>
<context>
    <name>SimulatedServersWindow</name>
    <message>
        <source>server %1</source>
        <translation>server %1</translation>
    </message>
    <message>
        <source>Simulated servers — zsetlab</source>
        <translation>Server mô phỏng — zsetlab</translation>
    </message>
    <message>
        <source>Shipped scenarios with several app servers.</source>
        <translation>Các kịch bản có sẵn với nhiều app server.</translation>
    </message>
    <message>
        <source>E&amp;xample</source>
        <translation>&amp;Ví dụ</translation>
    </message>
    <message>
        <source>One app server per entry, separated by &apos;;&apos;, fields by &apos;,&apos;:
rate=R  Poisson arrivals, R per ms
pace=burst | interval:MICROS | poisson:PER_MS
offset=MS  the server&apos;s clock runs MS ahead (negative: behind)
drift=PPM  and gains PPM microseconds per second</source>
        <translation>Mỗi mục là một app server, các mục cách nhau bằng &apos;;&apos;, các trường cách nhau bằng &apos;,&apos;:
rate=R  request đến theo Poisson, R request mỗi ms
pace=burst | interval:MICROS | poisson:PER_MS
offset=MS  đồng hồ của server chạy nhanh hơn MS ms (số âm: chậm hơn)
drift=PPM  và nhanh thêm PPM microsecond mỗi giây</translation>
    </message>
    <message>
        <source>&amp;Servers</source>
        <translation>&amp;Server</translation>
    </message>
    <message>
        <source>Requests of all servers together; faster servers send more of them.</source>
        <translation>Tổng số request của tất cả server; server nào nhanh hơn thì gửi nhiều hơn.</translation>
    </message>
    <message>
        <source>&amp;Requests</source>
        <translation>Số &amp;request</translation>
    </message>
    <message>
        <source>Fire</source>
        <translation>Bắn</translation>
    </message>
    <message>
        <source>(choose one)</source>
        <translation>(chọn một)</translation>
    </message>
    <message numerus="yes">
        <source>Firing %Ln request(s) from %1 servers…</source>
        <translation>
            <numerusform>Đang bắn %Ln request từ %1 server…</numerusform>
        </translation>
    </message>
    <message>
        <source>%L1 of %L2 requests answered…</source>
        <translation>Đã có phản hồi cho %L1/%L2 request…</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Thất bại: %1</translation>
    </message>
    <message>
        <source>%L1 sent, %L2 stored, %L3 overwritten: %L4 of them overwrote another server&apos;s member.</source>
        <translation>Đã gửi %L1, lưu được %L2, %L3 bị ghi đè: %L4 request trong số đó ghi đè lên member của server khác.</translation>
    </message>
    <message>
        <source>%L1 admitted beyond the limit of %L2.</source>
        <translation>%L1 request được cho qua dù vượt giới hạn %L2.</translation>
    </message>
    <message>
        <source>Stopped. %1</source>
        <translation>Đã dừng. %1</translation>
    </message>
    <message>
        <source>Fire the servers first: the table is empty.</source>
        <translation>Hãy bắn từ các server trước: bảng đang trống.</translation>
    </message>
    <message>
        <source>Server lanes</source>
        <translation>Các làn server</translation>
    </message>
    <message>
        <source>Fire the servers to see one lane per app server.</source>
        <translation>Bắn từ các server để thấy mỗi app server một làn.</translation>
    </message>
</context>
<context>
    <name>StudyWindow</name>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Chạy</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Dừng</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Dừng</translation>
    </message>
    <message>
        <source>Export table…</source>
        <translation>Xuất bảng…</translation>
    </message>
    <message>
        <source>Export picture…</source>
        <translation>Xuất hình ảnh…</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Tệp</translation>
    </message>
    <message>
        <source>Export &amp;Table (CSV or JSON)…</source>
        <translation>Xuất &amp;bảng (CSV hoặc JSON)…</translation>
    </message>
    <message>
        <source>Export &amp;Picture…</source>
        <translation>Xuất &amp;hình ảnh…</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>Đó&amp;ng</translation>
    </message>
    <message>
        <source>Not connected to Redis: connect in the main window first.</source>
        <translation>Chưa kết nối tới Redis: hãy kết nối ở cửa sổ chính trước.</translation>
    </message>
    <message>
        <source>Export Table</source>
        <translation>Xuất bảng</translation>
    </message>
    <message>
        <source>CSV tables (*.csv);;JSON documents (*.json)</source>
        <translation>Bảng CSV (*.csv);;Tài liệu JSON (*.json)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Đã lưu %1</translation>
    </message>
    <message>
        <source>Whole window</source>
        <translation>Toàn bộ cửa sổ</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>Bảng</translation>
    </message>
</context>
<context>
    <name>SweepChart</name>
    <message>
        <source>Stored share against arrival rate. Lines: what member = now allows in theory; circles: what Redis stored; diamonds: requests admitted beyond the limit.</source>
        <translation>Tỉ lệ được lưu theo tốc độ request đến. Đường kẻ: mức mà member = now cho phép theo lý thuyết; hình tròn: những gì Redis thực sự lưu; hình thoi: các request được cho qua dù đã vượt giới hạn.</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>đo được</translation>
    </message>
    <message>
        <source>beyond the limit</source>
        <translation>vượt giới hạn</translation>
    </message>
    <message>
        <source>Stored with member = now — theory: (1 − e^−L) / L Poisson, 1/L even</source>
        <translation>Tỉ lệ được lưu với member = now — lý thuyết: (1 − e^−L) / L khi Poisson, 1/L khi đều</translation>
    </message>
    <message>
        <source>arrival rate L, requests per ms (log scale)</source>
        <translation>tốc độ đến L, số request mỗi ms (thang log)</translation>
    </message>
    <message>
        <source>stored, % of requests sent</source>
        <translation>được lưu, % số request đã gửi</translation>
    </message>
    <message>
        <source>Poisson theory</source>
        <translation>lý thuyết Poisson</translation>
    </message>
    <message>
        <source>even theory</source>
        <translation>lý thuyết phân bố đều</translation>
    </message>
    <message>
        <source>unique: 100 %</source>
        <translation>duy nhất: 100 %</translation>
    </message>
</context>
<context>
    <name>SweepTableModel</name>
    <message>
        <source>%L1 of %L2 requests were admitted while more than %L3 were really in the window.</source>
        <translation>%L1/%L2 request được cho qua trong khi thực tế đã có hơn %L3 request trong window.</translation>
    </message>
    <message>
        <source>%L1 requests only overwrote an existing member.</source>
        <translation>%L1 request chỉ ghi đè lên một member đã có sẵn.</translation>
    </message>
    <message>
        <source>rate /ms</source>
        <translation>tốc độ /ms</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>đã gửi</translation>
    </message>
    <message>
        <source>stored</source>
        <translation>được lưu</translation>
    </message>
    <message>
        <source>stored %</source>
        <translation>được lưu %</translation>
    </message>
    <message>
        <source>theory %</source>
        <translation>lý thuyết %</translation>
    </message>
    <message>
        <source>diff. pp</source>
        <translation>chênh (điểm %)</translation>
    </message>
    <message>
        <source>over limit %</source>
        <translation>vượt giới hạn %</translation>
    </message>
    <message>
        <source>Arrivals per millisecond asked for.</source>
        <translation>Số request đến mỗi millisecond đã đặt ra.</translation>
    </message>
    <message>
        <source>Requests finished (answered or failed).</source>
        <translation>Số request đã xong (có phản hồi hoặc bị lỗi).</translation>
    </message>
    <message>
        <source>Requests that got a ZSET member of their own (ZADD replied 1).</source>
        <translation>Số request có được member riêng trong ZSET (ZADD trả về 1).</translation>
    </message>
    <message>
        <source>Stored as a share of the requests sent.</source>
        <translation>Số request được lưu, tính theo tỉ lệ trên số request đã gửi.</translation>
    </message>
    <message>
        <source>What member = now allows at this rate: (1 − e^−L) / L for Poisson arrivals, d for one arrival every d ms; 100 % for unique members.</source>
        <translation>Mức mà member = now cho phép ở tốc độ này: (1 − e^−L) / L khi request đến theo Poisson, d khi cứ d ms có một request; 100 % với member duy nhất.</translation>
    </message>
    <message>
        <source>Measured minus theory, in percentage points.</source>
        <translation>Giá trị đo được trừ đi lý thuyết, tính bằng điểm phần trăm.</translation>
    </message>
    <message>
        <source>Requests admitted while the true number in the window was above the limit.</source>
        <translation>Số request được cho qua trong khi số request thật trong window đã vượt giới hạn.</translation>
    </message>
</context>
<context>
    <name>SweepWindow</name>
    <message>
        <source>Collision curve — zsetlab</source>
        <translation>Đường cong va chạm — zsetlab</translation>
    </message>
    <message>
        <source>Arrival rates in requests per millisecond, separated by commas or spaces, from %1 to %2; one burst per rate.</source>
        <translation>Các tốc độ đến, tính bằng số request mỗi millisecond, cách nhau bằng dấu phẩy hoặc dấu cách, từ %1 đến %2; mỗi tốc độ chạy một burst.</translation>
    </message>
    <message>
        <source>&amp;Rates per ms</source>
        <translation>Tố&amp;c độ mỗi ms</translation>
    </message>
    <message>
        <source>&amp;Arrivals</source>
        <translation>&amp;Phân bố lượt đến</translation>
    </message>
    <message>
        <source>Requests per rate; 5,000 measure the stored share to within about 2 points.</source>
        <translation>Số request cho mỗi tốc độ; với 5.000 request, tỉ lệ được lưu đo được sai lệch khoảng 2 điểm phần trăm.</translation>
    </message>
    <message>
        <source>Requests per &amp;point</source>
        <translation>Số request mỗi đ&amp;iểm</translation>
    </message>
    <message>
        <source>schedule: each request carries its planned arrival time, sent as fast as possible. system-ms: requests leave at their arrival time and carry the wall clock.</source>
        <translation>theo lịch: mỗi request mang thời điểm đến đã lên lịch và được gửi nhanh nhất có thể. system-ms: request được gửi đi đúng thời điểm đến và mang giờ của đồng hồ hệ thống.</translation>
    </message>
    <message>
        <source>With a limit, the table and the chart also show the share admitted while the true number of requests in the window was above it.</source>
        <translation>Khi có giới hạn, bảng và biểu đồ còn cho thấy tỉ lệ request được cho qua trong khi số request thật trong window đã vượt giới hạn đó.</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>Chạy quét</translation>
    </message>
    <message>
        <source>Simulated servers…</source>
        <translation>Server mô phỏng…</translation>
    </message>
    <message>
        <source>Several app servers with their own clocks firing at one key.</source>
        <translation>Nhiều app server, mỗi server có đồng hồ riêng, cùng bắn vào một key.</translation>
    </message>
    <message>
        <source>&amp;Sweep</source>
        <translation>&amp;Quét</translation>
    </message>
    <message>
        <source>Simulated &amp;Servers…</source>
        <translation>&amp;Server mô phỏng…</translation>
    </message>
    <message>
        <source>Rate %1 of %2 (L = %3 per ms): %L4 of %L5 requests</source>
        <translation>Tốc độ %1/%2 (L = %3 mỗi ms): %L4/%L5 request</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Thất bại: %1</translation>
    </message>
    <message>
        <source>Stopped: %1 of %2 rates measured.</source>
        <translation>Đã dừng: đo được %1/%2 tốc độ.</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n rate(s) measured in %1 s on Redis %2.</source>
        <translation>
            <numerusform>Xong: đã đo %n tốc độ trong %1 s trên Redis %2.</numerusform>
        </translation>
    </message>
    <message>
        <source>Run a sweep first: the table is empty.</source>
        <translation>Hãy chạy quét trước: bảng đang trống.</translation>
    </message>
    <message>
        <source>Collision curve chart</source>
        <translation>Biểu đồ đường cong va chạm</translation>
    </message>
    <message>
        <source>Poisson</source>
        <translation>Poisson</translation>
    </message>
    <message>
        <source>even, every 1/L ms</source>
        <translation>đều, mỗi 1/L ms một request</translation>
    </message>
    <message>
        <source>Poisson: random arrivals at L per ms, as independent users send them. Even: one request every 1/L ms.</source>
        <translation>Poisson: request đến ngẫu nhiên, trung bình L request mỗi ms, giống như khi những người dùng độc lập gửi tới. Đều: cứ 1/L ms có một request.</translation>
    </message>
    <message>
        <source>The ZSET member each request writes: the timestamp (ZADD key now now, the bug) or a unique one.</source>
        <translation>Member trong ZSET mà mỗi request ghi vào: timestamp (ZADD key now now, lỗi) hoặc một member duy nhất.</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <source>Each millisecond of &apos;now&apos; as a stack of the requests that carried it. Wheel: zoom; drag: pan; click: show the member in the ZSET table.</source>
        <translation>Mỗi millisecond của &apos;now&apos; là một chồng gồm các request mang giá trị đó. Cuộn chuột: phóng to/thu nhỏ; kéo: di chuyển; nhấp chuột: xem member trong bảng ZSET.</translation>
    </message>
    <message>
        <source>Fire a burst (F5) to see each request land on the timeline.</source>
        <translation>Bắn một burst (F5) để xem từng request rơi vào dòng thời gian.</translation>
    </message>
    <message>
        <source>requests in the ms</source>
        <translation>request trong ms đó</translation>
    </message>
    <message numerus="yes">
        <source>requests per %n ms</source>
        <translation>
            <numerusform>request mỗi %n ms</numerusform>
        </translation>
    </message>
    <message>
        <source>now, ms since start</source>
        <translation>now, ms kể từ lúc bắt đầu</translation>
    </message>
    <message>
        <source>stored: own member</source>
        <translation>được lưu: có member riêng</translation>
    </message>
    <message>
        <source>overwritten: ZADD replied 0</source>
        <translation>bị ghi đè: ZADD trả về 0</translation>
    </message>
    <message>
        <source>stored</source>
        <translation>được lưu</translation>
    </message>
    <message>
        <source>overwritten</source>
        <translation>bị ghi đè</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1 ms&lt;/b&gt;: %n request(s), #%2 to #%3</source>
        <translation>
            <numerusform>&lt;b&gt;%1 ms&lt;/b&gt;: %n request, từ #%2 đến #%3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;%n request(s) only overwrote a member (ZADD replied 0)</source>
        <translation>
            <numerusform>&lt;br&gt;%n request chỉ ghi đè lên một member (ZADD trả về 0)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;%n request(s) failed</source>
        <translation>
            <numerusform>&lt;br&gt;%n request bị lỗi</numerusform>
        </translation>
    </message>
    <message>
        <source>#%1 → count %2, added %3</source>
        <translation>#%1 → count %2, added %3</translation>
    </message>
    <message>
        <source>One lane per app server; x is the &apos;now&apos; each request carried. A diamond under another server&apos;s square is a collision across servers. Wheel: zoom; drag: pan; double-click: fit.</source>
        <translation>Mỗi app server một làn; trục x là giá trị &apos;now&apos; mà mỗi request mang theo. Hình thoi nằm dưới hình vuông của một server khác là một lần trùng member giữa hai server. Cuộn chuột: phóng to/thu nhỏ; kéo: di chuyển; nhấp đúp: hiện vừa khung.</translation>
    </message>
    <message numerus="yes">
        <source>tallest %n request(s)</source>
        <translation>
            <numerusform>cột cao nhất %n request</numerusform>
        </translation>
    </message>
    <message>
        <source>reply did not say</source>
        <translation>phản hồi không cho biết</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>bị lỗi</translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;%n request(s) whose reply did not say whether ZADD added (the script answers only a count)</source>
        <translation>
            <numerusform>&lt;br&gt;%n request có phản hồi không cho biết ZADD có thêm member hay không (script chỉ trả về count)</numerusform>
        </translation>
    </message>
    <message>
        <source>#%1 failed</source>
        <translation>#%1 bị lỗi</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>không rõ</translation>
    </message>
    <message>
        <source>&lt;br&gt;kept: #%1, member &lt;tt&gt;%2&lt;/tt&gt;</source>
        <translation>&lt;br&gt;được giữ: #%1, member &lt;tt&gt;%2&lt;/tt&gt;</translation>
    </message>
    <message>
        <source>ms since the first write (Redis&apos;s clock)</source>
        <translation>ms kể từ lần ghi đầu tiên (đồng hồ của Redis)</translation>
    </message>
</context>
<context>
    <name>TlsChannel</name>
    <message>
        <source>Cannot set up TLS: %1.</source>
        <translation>Không thiết lập được TLS: %1.</translation>
    </message>
    <message>
        <source>Cannot read this machine&apos;s CA store (%1). Install ca-certificates, or give the server&apos;s CA with --tls-ca FILE.</source>
        <translation>Không đọc được kho CA của máy này (%1). Hãy cài ca-certificates, hoặc cho CA của máy chủ bằng --tls-ca FILE.</translation>
    </message>
    <message>
        <source>Cannot read the CA certificate %1 (%2). Give a PEM file with --tls-ca FILE.</source>
        <translation>Không đọc được chứng chỉ CA %1 (%2). Hãy cho một tệp PEM bằng --tls-ca FILE.</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>không có tệp này</translation>
    </message>
    <message>
        <source>Cannot use the client certificate %1 (%2). Give a PEM certificate with --tls-cert FILE.</source>
        <translation>Không dùng được chứng chỉ máy khách %1 (%2). Hãy cho một chứng chỉ PEM bằng --tls-cert FILE.</translation>
    </message>
    <message>
        <source>The key %1 does not belong to the certificate %2: give the pair that was made together.</source>
        <translation>Khóa %1 không thuộc về chứng chỉ %2: hãy cho cặp được tạo cùng nhau.</translation>
    </message>
    <message>
        <source>Cannot use the key %1 (%2). Give the client certificate&apos;s PEM key with --tls-key FILE.</source>
        <translation>Không dùng được khóa %1 (%2). Hãy cho khóa PEM của chứng chỉ máy khách bằng --tls-key FILE.</translation>
    </message>
    <message>
        <source>The certificate of %1 is not signed by a CA zsetlab trusts (%2). Pass the CA that signed it with --tls-ca FILE (Connect dialog: CA certificate), or --insecure to skip the check on a test server.</source>
        <translation>Chứng chỉ của %1 không được ký bởi CA mà zsetlab tin cậy (%2). Hãy cho CA đã ký nó bằng --tls-ca FILE (hộp thoại Kết nối: Chứng chỉ CA), hoặc --insecure để bỏ qua kiểm tra trên máy chủ thử nghiệm.</translation>
    </message>
    <message>
        <source>The certificate of %1 expired on %2. Renew the server&apos;s certificate (tls-cert-file); --insecure skips the check on a test server.</source>
        <translation>Chứng chỉ của %1 đã hết hạn ngày %2. Hãy gia hạn chứng chỉ của máy chủ (tls-cert-file); --insecure bỏ qua kiểm tra trên máy chủ thử nghiệm.</translation>
    </message>
    <message>
        <source>The certificate of %1 is valid only from %2. Check this machine&apos;s clock, or the server&apos;s certificate.</source>
        <translation>Chứng chỉ của %1 chỉ có hiệu lực từ %2. Hãy kiểm tra đồng hồ của máy này, hoặc chứng chỉ của máy chủ.</translation>
    </message>
    <message>
        <source>The certificate of %1 is for %2, not for &quot;%3&quot;. Connect with a name it lists, or pass the name it has with --sni NAME.</source>
        <translation>Chứng chỉ của %1 dành cho %2, không phải cho &quot;%3&quot;. Hãy kết nối bằng một tên nó liệt kê, hoặc cho tên của nó bằng --sni NAME.</translation>
    </message>
    <message>
        <source>no name</source>
        <translation>không có tên</translation>
    </message>
    <message>
        <source>The certificate of %1 was refused: %2. --insecure skips the check on a test server.</source>
        <translation>Chứng chỉ của %1 bị từ chối: %2. --insecure bỏ qua kiểm tra trên máy chủ thử nghiệm.</translation>
    </message>
    <message>
        <source>the server closed the connection</source>
        <translation>máy chủ đã đóng kết nối</translation>
    </message>
    <message>
        <source>The TLS handshake with %1 ended: %2. Is it the server&apos;s TLS port (tls-port)? A plain port takes redis://.</source>
        <translation>Bắt tay TLS với %1 đã dừng: %2. Đây có phải cổng TLS (tls-port) của máy chủ không? Cổng thường dùng redis://.</translation>
    </message>
    <message>
        <source>The server at %1 requires a client certificate: pass --tls-cert FILE and --tls-key FILE (Connect dialog: client certificate and key).</source>
        <translation>Máy chủ tại %1 yêu cầu chứng chỉ máy khách: hãy cho --tls-cert FILE và --tls-key FILE (hộp thoại Kết nối: chứng chỉ và khóa máy khách).</translation>
    </message>
    <message>
        <source>The server at %1 refused the connection (%2): it may require a client certificate. Pass --tls-cert FILE and --tls-key FILE.</source>
        <translation>Máy chủ tại %1 từ chối kết nối (%2): có thể nó yêu cầu chứng chỉ máy khách. Hãy cho --tls-cert FILE và --tls-key FILE.</translation>
    </message>
    <message>
        <source>The server at %1 refused the client certificate %2 (%3). Use one signed by a CA the server trusts (its tls-ca-cert-file), and not expired.</source>
        <translation>Máy chủ tại %1 từ chối chứng chỉ máy khách %2 (%3). Hãy dùng chứng chỉ được ký bởi CA mà máy chủ tin cậy (tls-ca-cert-file của nó) và chưa hết hạn.</translation>
    </message>
    <message>
        <source>%1 does not speak TLS on this port (%2). Use redis:// for a plain port, or the server&apos;s tls-port.</source>
        <translation>%1 không nói TLS trên cổng này (%2). Hãy dùng redis:// cho cổng thường, hoặc tls-port của máy chủ.</translation>
    </message>
    <message>
        <source>The TLS handshake with %1 failed: %2.</source>
        <translation>Bắt tay TLS với %1 thất bại: %2.</translation>
    </message>
    <message>
        <source>TLS error: %1</source>
        <translation>Lỗi TLS: %1</translation>
    </message>
    <message>
        <source>The server at %1 asked for a client certificate and closed the connection (%2). Pass --tls-cert FILE and --tls-key FILE, signed by a CA the server trusts.</source>
        <translation>Máy chủ tại %1 đã yêu cầu chứng chỉ máy khách rồi đóng kết nối (%2). Hãy cho --tls-cert FILE và --tls-key FILE, được ký bởi CA mà máy chủ tin cậy.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot be checked against a certificate: give a host name or an address (--sni NAME).</source>
        <translation>Không thể đối chiếu &quot;%1&quot; với chứng chỉ: hãy cho tên máy hoặc địa chỉ (--sni NAME).</translation>
    </message>
    <message>
        <source>No TLS handshake with %1 within %2 ms. Is it the server&apos;s TLS port (tls-port)? A plain port takes redis://.</source>
        <translation>Không bắt tay TLS được với %1 trong %2 ms. Đây có phải cổng TLS (tls-port) của máy chủ không? Cổng thường dùng redis://.</translation>
    </message>
    <message>
        <source>larger than 1 MiB: not a PEM file</source>
        <translation>lớn hơn 1 MiB: không phải tệp PEM</translation>
    </message>
</context>
<context>
    <name>TransportBar</name>
    <message>
        <source>To the first request (Home)</source>
        <translation>Về request đầu tiên (Home)</translation>
    </message>
    <message>
        <source>One request back (Left)</source>
        <translation>Lùi một request (Trái)</translation>
    </message>
    <message>
        <source>One request forward (Right)</source>
        <translation>Tiến một request (Phải)</translation>
    </message>
    <message>
        <source>To the last request: the state the run ended with (End)</source>
        <translation>Tới request cuối: trạng thái khi lần chạy kết thúc (End)</translation>
    </message>
    <message>
        <source>Overwrite ▸</source>
        <translation>Ghi đè ▸</translation>
    </message>
    <message>
        <source>To the next request whose ZADD replied 0: its member was there already</source>
        <translation>Tới request kế tiếp có ZADD trả về 0: member của nó đã có sẵn</translation>
    </message>
    <message>
        <source>Beyond limit ▸</source>
        <translation>Vượt giới hạn ▸</translation>
    </message>
    <message>
        <source>To the next request the limiter admitted although the window already held the limit</source>
        <translation>Tới request kế tiếp mà limiter cho qua dù window đã đủ giới hạn</translation>
    </message>
    <message>
        <source>Speed: requests a second (slow motion, for a class), or the run&apos;s own time</source>
        <translation>Tốc độ: số request mỗi giây (quay chậm, cho lớp học), hoặc theo thời gian của chính lần chạy</translation>
    </message>
    <message>
        <source>by request</source>
        <translation>theo request</translation>
    </message>
    <message>
        <source>by time</source>
        <translation>theo thời gian</translation>
    </message>
    <message>
        <source>The slider moves over the requests one by one, or over their time (ms of now)</source>
        <translation>Thanh trượt đi qua từng request, hoặc theo thời gian của chúng (ms của now)</translation>
    </message>
    <message>
        <source>Pause (Space)</source>
        <translation>Tạm dừng (phím Cách)</translation>
    </message>
    <message>
        <source>Play from here, at the speed chosen (Space)</source>
        <translation>Phát từ đây, theo tốc độ đã chọn (phím Cách)</translation>
    </message>
    <message>
        <source>Request %1 of %2: %3.</source>
        <translation>Request %1/%2: %3.</translation>
    </message>
    <message numerus="yes">
        <source>The ZSET holds %Ln member(s);</source>
        <translation>
            <numerusform>ZSET có %Ln member;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln request(s) are in the window.</source>
        <translation>
            <numerusform>%Ln request nằm trong window.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>So far: %Ln overwritten, %1 admitted beyond the limit.</source>
        <translation>
            <numerusform>Tới giờ: %Ln bị ghi đè, %1 được cho qua vượt giới hạn.</numerusform>
        </translation>
    </message>
    <message>
        <source>What if…</source>
        <translation>Nếu như…</translation>
    </message>
    <message>
        <source>From this request on, with another limiter, limit or window: the rest of the run fired again on Redis with the same timestamps, beside this one</source>
        <translation>Từ request này trở đi, với bộ giới hạn, giới hạn hoặc cửa sổ khác: phần còn lại của lần chạy được bắn lại vào Redis với cùng timestamp, bên cạnh lần chạy này</translation>
    </message>
</context>
<context>
    <name>WatchKeyModel</name>
    <message>
        <source>script %1…</source>
        <translation>script %1…</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message numerus="yes">
        <source>%n more request(s)</source>
        <translation>
            <numerusform>thêm %n request</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (db %2)</source>
        <translation>%1 (db %2)</translation>
    </message>
    <message>
        <source>%1 + ?</source>
        <translation>%1 + ?</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>không rõ</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Key</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>Request</translation>
    </message>
    <message>
        <source>Overwrote</source>
        <translation>Ghi đè</translation>
    </message>
    <message>
        <source>Counted</source>
        <translation>Đếm được</translation>
    </message>
    <message>
        <source>True count</source>
        <translation>Số thật</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Nguồn</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
</context>
<context>
    <name>WatchPanel</name>
    <message>
        <source>Watch this server?</source>
        <translation>Theo dõi server này?</translation>
    </message>
    <message>
        <source>Point zsetlab at the Redis your app uses and watch its limiter from the outside: the server&apos;s MONITOR stream shows every ZADD, and one that finds its member already there is an overwrite. zsetlab writes nothing.</source>
        <translation>Trỏ zsetlab tới Redis mà ứng dụng của bạn dùng và theo dõi limiter của nó từ bên ngoài: luồng MONITOR của server cho thấy mọi lệnh ZADD, và lệnh nào gặp member đã có sẵn là một lần ghi đè. zsetlab không ghi gì cả.</translation>
    </message>
    <message>
        <source>&amp;Keys matching:</source>
        <translation>&amp;Key khớp với:</translation>
    </message>
    <message>
        <source>Redis glob patterns, separated by spaces, e.g. rl:* limit:{user}*</source>
        <translation>Mẫu glob của Redis, cách nhau bằng dấu cách, ví dụ rl:* limit:{user}*</translation>
    </message>
    <message>
        <source>Stop &amp;after:</source>
        <translation>Dừng s&amp;au:</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>&amp;Watch</source>
        <translation>&amp;Theo dõi</translation>
    </message>
    <message>
        <source>Stop (Esc)</source>
        <translation>Dừng (Esc)</translation>
    </message>
    <message>
        <source>This is zsetlab&apos;s private server: run your app or zsetlab-cli against it and watch.</source>
        <translation>Đây là server riêng của zsetlab: hãy chạy ứng dụng của bạn hoặc zsetlab-cli vào server này rồi theo dõi.</translation>
    </message>
    <message>
        <source>MONITOR costs the server a large share of its throughput (Redis&apos;s own figures: SET from about 95,000 to 42,000 requests/s with one monitor). The watch stops after the time above, or at once with Stop.</source>
        <translation>MONITOR làm server mất một phần lớn thông lượng (số liệu của chính Redis: SET giảm từ khoảng 95.000 xuống 42.000 request/s khi có một monitor). Phiên theo dõi dừng sau khoảng thời gian ở trên, hoặc dừng ngay khi bấm Dừng.</translation>
    </message>
    <message>
        <source>Not connected to Redis: use Connect… first.</source>
        <translation>Chưa kết nối tới Redis: hãy dùng Kết nối… trước.</translation>
    </message>
    <message numerus="yes">
        <source>Watch %1 with MONITOR for up to %n s?</source>
        <translation>
            <numerusform>Theo dõi %1 bằng MONITOR trong tối đa %n s?</numerusform>
        </translation>
    </message>
    <message>
        <source>This server is not on this machine: the watch slows it for everyone who uses it.</source>
        <translation>Server này không nằm trên máy này: phiên theo dõi làm nó chậm đi với tất cả những ai đang dùng nó.</translation>
    </message>
    <message>
        <source>Not watched.</source>
        <translation>Không theo dõi.</translation>
    </message>
    <message>
        <source>The watch ended after %1 s.</source>
        <translation>Phiên theo dõi đã kết thúc sau %1 s.</translation>
    </message>
    <message>
        <source>The watch was stopped.</source>
        <translation>Phiên theo dõi đã bị dừng.</translation>
    </message>
    <message>
        <source>A burst is using the timeline: choose the key again once it ends.</source>
        <translation>Một burst đang dùng dòng thời gian: hãy chọn lại key khi burst kết thúc.</translation>
    </message>
    <message>
        <source>Watched: %1</source>
        <translation>Đang theo dõi: %1</translation>
    </message>
    <message>
        <source>Starting MONITOR…</source>
        <translation>Đang bật MONITOR…</translation>
    </message>
    <message>
        <source>No request reached a watched key yet: run your app (or zsetlab-cli run) against this server, or check the pattern.</source>
        <translation>Chưa có request nào chạm tới key đang theo dõi: hãy chạy ứng dụng của bạn (hoặc zsetlab-cli run) vào server này, hoặc kiểm tra lại mẫu key.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln request(s).</source>
        <translation>
            <numerusform>%Ln request.</numerusform>
        </translation>
    </message>
    <message>
        <source>script %1 (seen by the watch)</source>
        <translation>script %1 (phiên theo dõi thấy được)</translation>
    </message>
    <message>
        <source>Open Its Script in the Script Doctor…</source>
        <translation>Mở script của nó trong Bác sĩ script…</translation>
    </message>
    <message>
        <source>The Lua script behind the chosen key&apos;s calls, as the stream showed it (EVAL or SCRIPT LOAD while the watch ran).</source>
        <translation>Script Lua đứng sau các lệnh gọi tới key đã chọn, đúng như luồng MONITOR cho thấy (EVAL hoặc SCRIPT LOAD trong lúc theo dõi).</translation>
    </message>
    <message>
        <source>the cluster&apos;s masters (%1)</source>
        <translation>các master của cluster (%1)</translation>
    </message>
    <message>
        <source>Watched: %1 (drawn from the first %L2 of its %L3 ZADDs: the window keeps at most %L4 per key and %L5 in all; the figures count every one)</source>
        <translation>Đang theo dõi: %1 (vẽ từ %L2 lệnh ZADD đầu tiên trong %L3 lệnh của khóa: cửa sổ giữ tối đa %L4 mỗi khóa và %L5 tổng cộng; các con số đếm đủ tất cả)</translation>
    </message>
    <message numerus="yes">
        <source>Watching %1 for %2 s of %3: %Ln key(s), </source>
        <translation>
            <numerusform>Đang theo dõi %1, %2 s trên %3: %Ln key, </numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WatchReport</name>
    <message>
        <source>No request reached a watched key. Check --pattern and the database, and that the app sends requests while the watch runs.</source>
        <translation>Không có request nào chạm tới key đang theo dõi. Hãy kiểm tra --pattern và database, và xem ứng dụng có gửi request trong lúc theo dõi không.</translation>
    </message>
    <message>
        <source>None of %1 requests overwrote a member: each request kept a member of its own.</source>
        <translation>Không request nào trong %1 request ghi đè lên một member: mỗi request giữ một member riêng.</translation>
    </message>
    <message>
        <source>%1 of %2 requests overwrote a member: the member is the time, so requests in the same millisecond share one member and the limiter counts them once. Use a unique member: the time plus a request id or a per-key sequence number.</source>
        <translation>%1 trong %2 request đã ghi đè lên một member: member chính là timestamp, nên các request trong cùng một millisecond dùng chung một member và limiter chỉ đếm chúng một lần. Hãy dùng member duy nhất: timestamp kèm request id hoặc số thứ tự riêng của từng key.</translation>
    </message>
    <message>
        <source>%1 of %2 requests overwrote a member: requests share members, so the limiter counts them once. Use a unique member: the time plus a request id or a per-key sequence number.</source>
        <translation>%1 trong %2 request đã ghi đè lên một member: các request dùng chung member, nên limiter chỉ đếm chúng một lần. Hãy dùng member duy nhất: timestamp kèm request id hoặc số thứ tự riêng của từng key.</translation>
    </message>
</context>
<context>
    <name>WatchSession</name>
    <message>
        <source>The ACL user &quot;%1&quot; may not run MONITOR (%2). Grant it with: ACL SETUSER %1 +monitor (and +echo +select +zcard +zrange to read the keys the watch first sees mid-stream).</source>
        <translation>Người dùng ACL &quot;%1&quot; không được chạy MONITOR (%2). Hãy cấp quyền bằng: ACL SETUSER %1 +monitor (và +echo +select +zcard +zrange để đọc các key mà phiên theo dõi gặp lần đầu giữa chừng).</translation>
    </message>
    <message>
        <source>The server at %1 went away during the watch (%2). The figures below are what the watch saw until then.</source>
        <translation>Máy chủ tại %1 đã ngừng trong lúc theo dõi (%2). Các số liệu dưới đây là những gì phiên theo dõi thấy được tới lúc đó.</translation>
    </message>
    <message>
        <source>The cluster has a master at %1, which is not on this machine: watching it needs your consent (--allow-remote, with that address as --redis).</source>
        <translation>Cluster có một master ở %1, không nằm trên máy này: muốn theo dõi nó cần bạn đồng ý (--allow-remote, với địa chỉ đó làm --redis).</translation>
    </message>
</context>
<context>
    <name>WatchTimelineFeed</name>
    <message>
        <source>watched</source>
        <translation>được theo dõi</translation>
    </message>
</context>
<context>
    <name>WebPage</name>
    <message numerus="yes">
        <source>A web page plays one run, or two side by side; %n were given.</source>
        <translation>
            <numerusform>Một trang web phát một lần chạy, hoặc hai lần chạy song song; đã có %n lần chạy được đưa vào.</numerusform>
        </translation>
    </message>
    <message>
        <source>The run holds no request (it was stopped before the first answer): there is nothing to play. Record a run that got answers first.</source>
        <translation>Lần chạy không có request nào (nó bị dừng trước phản hồi đầu tiên): không có gì để phát. Hãy ghi lại một lần chạy đã nhận được phản hồi trước.</translation>
    </message>
    <message>
        <source>This zsetlab was built without its web page (a resource is missing). Reinstall zsetlab.</source>
        <translation>Bản zsetlab này được build thiếu phần trang web (thiếu một tài nguyên). Hãy cài đặt lại zsetlab.</translation>
    </message>
    <message>
        <source>Give the web page a file name, e.g. run.html.</source>
        <translation>Hãy đặt tên tệp cho trang web, ví dụ run.html.</translation>
    </message>
    <message>
        <source>%1 is a folder: give a file name in it, e.g. %2.</source>
        <translation>%1 là một thư mục: hãy đặt một tên tệp trong đó, ví dụ %2.</translation>
    </message>
    <message>
        <source>The folder %1 does not exist: create it first, or choose another.</source>
        <translation>Thư mục %1 không tồn tại: hãy tạo nó trước, hoặc chọn thư mục khác.</translation>
    </message>
    <message>
        <source>%1 may not be written here: choose a folder you may write to.</source>
        <translation>Không được phép ghi %1 ở đây: hãy chọn một thư mục bạn có quyền ghi.</translation>
    </message>
    <message>
        <source>%1 is the replay the page is made from, which it would replace: give the page another name, e.g. %2.html.</source>
        <translation>%1 là bản phát lại dùng để tạo trang, và trang sẽ thay thế nó: hãy đặt cho trang một tên khác, ví dụ %2.html.</translation>
    </message>
    <message>
        <source>Could not write the web page: %1</source>
        <translation>Không ghi được trang web: %1</translation>
    </message>
    <message>
        <source>Stopped by a signal: the web page was not written.</source>
        <translation>Bị một tín hiệu dừng: trang web chưa được ghi.</translation>
    </message>
</context>
<context>
    <name>WhatIf</name>
    <message>
        <source>Nothing to fork: fire a burst or open a replay first.</source>
        <translation>Chưa có gì để rẽ nhánh: hãy bắn một loạt request hoặc mở một bản phát lại trước.</translation>
    </message>
    <message>
        <source>the run (%1)</source>
        <translation>lần chạy (%1)</translation>
    </message>
    <message>
        <source>what if (%1), from request %L2</source>
        <translation>nếu như (%1), từ request %L2</translation>
    </message>
    <message>
        <source>From request %L1 on: %2: %L3 overwritten, %L4 beyond the limit · %5: %L6 overwritten, %L7 beyond the limit</source>
        <translation>Từ request %L1: %2: %L3 bị ghi đè, %L4 vượt giới hạn · %5: %L6 bị ghi đè, %L7 vượt giới hạn</translation>
    </message>
</context>
<context>
    <name>WindowFit</name>
    <message>
        <source>The text is as large as this screen allows.</source>
        <translation>Chữ đã lớn nhất ở mức màn hình này cho phép.</translation>
    </message>
</context>
<context>
    <name>ZsetKeys</name>
    <message>
        <source>A key name takes printable UTF-8 text: this one has a control character or bytes that are not UTF-8. Choose a name you can type.</source>
        <translation>Tên key phải là văn bản UTF-8 in được: tên này có một ký tự điều khiển hoặc các byte không phải UTF-8. Hãy chọn một tên bạn gõ được.</translation>
    </message>
</context>
<context>
    <name>ZsetModel</name>
    <message numerus="yes">
        <source>%n requests wrote this member: all but one were overwritten</source>
        <translation>
            <numerusform>%n request đã ghi vào member này: tất cả, trừ một, đều bị ghi đè</numerusform>
        </translation>
    </message>
    <message>
        <source>Written by one request</source>
        <translation>Chỉ một request ghi vào</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Hạng</translation>
    </message>
    <message>
        <source>Member</source>
        <translation>Member</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <source>Writes</source>
        <translation>Số lần ghi</translation>
    </message>
    <message>
        <source>Unknown: the script&apos;s replies do not name the member each request wrote.</source>
        <translation>Không rõ: phản hồi của script không nêu member mà mỗi request đã ghi.</translation>
    </message>
</context>
<context>
    <name>ZsetPanel</name>
    <message>
        <source>member contains…</source>
        <translation>member chứa…</translation>
    </message>
    <message>
        <source>Show only members that contain this text.</source>
        <translation>Chỉ hiện các member có chứa đoạn chữ này.</translation>
    </message>
    <message>
        <source>score from</source>
        <translation>score từ</translation>
    </message>
    <message>
        <source>score to</source>
        <translation>score đến</translation>
    </message>
    <message>
        <source>Show only members whose score (the request&apos;s now) lies in this range.</source>
        <translation>Chỉ hiện các member có score (giá trị now của request) nằm trong khoảng này.</translation>
    </message>
    <message>
        <source>No burst yet.</source>
        <translation>Chưa có burst nào.</translation>
    </message>
    <message>
        <source>first %L1 matching members</source>
        <translation>%L1 member khớp đầu tiên</translation>
    </message>
    <message numerus="yes">
        <source>%Ln member(s)</source>
        <translation>
            <numerusform>%Ln member</numerusform>
        </translation>
    </message>
    <message>
        <source>The contents of the ZSET, sorted by score: live while a burst runs, then as they were when it ended. Writes: how many requests of the burst wrote that member.</source>
        <translation>Nội dung của ZSET, sắp xếp theo score: cập nhật trực tiếp khi burst đang chạy, sau đó giữ nguyên như lúc burst kết thúc. Số lần ghi: số request của burst đã ghi vào member đó.</translation>
    </message>
    <message>
        <source>(%L1 requests stored a member; the window of %L2 ms trimmed the older ones)</source>
        <translation>(%L1 request đã lưu được một member; window %L2 ms đã cắt bỏ các member cũ hơn)</translation>
    </message>
    <message>
        <source>As it was when the burst ended, at %1.</source>
        <translation>Như lúc burst kết thúc, vào %1.</translation>
    </message>
    <message>
        <source>The burst&apos;s key has expired since (its limiter sets a TTL).</source>
        <translation>Key của burst đã hết hạn kể từ đó (rate limiter của nó có đặt TTL).</translation>
    </message>
    <message numerus="yes">
        <source>The burst&apos;s key holds %Ln member(s) now.</source>
        <translation>
            <numerusform>Key của burst hiện có %Ln member.</numerusform>
        </translation>
    </message>
    <message>
        <source>This limiter names no member: only its counts were recorded.</source>
        <translation>Limiter này không nêu member nào: chỉ các con số đếm được ghi lại.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln member(s) after request %1</source>
        <translation>
            <numerusform>%Ln member sau request %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · %2 · after request %L3 of %L4</source>
        <translation>%1 · %2 · sau request %L3/%L4</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>ZsetReader</name>
    <message>
        <source>The key %1 is not a sorted set.</source>
        <translation>Key %1 không phải là sorted set.</translation>
    </message>
    <message>
        <source>Reading %1&apos;s members failed: %2</source>
        <translation>Đọc các member của %1 thất bại: %2</translation>
    </message>
</context>
</TS>
