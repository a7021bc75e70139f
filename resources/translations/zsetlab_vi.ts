<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="vi_VN">
<context>
    <name>BurstEngine</name>
    <message>
        <source>A burst is already running: stop it first.</source>
        <translation>Một burst đang chạy: hãy dừng nó trước.</translation>
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
        <source>ZADD key now now: the timestamp is the member, so requests in the same millisecond overwrite one entry (lua/now.lua).</source>
        <translation>ZADD key now now: timestamp chính là member, nên các request trong cùng một millisecond ghi đè lên cùng một phần tử (lua/now.lua).</translation>
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
        <source>request id</source>
        <translation>id của request</translation>
    </message>
    <message>
        <source>random</source>
        <translation>ngẫu nhiên</translation>
    </message>
    <message>
        <source>sequence</source>
        <translation>số thứ tự</translation>
    </message>
    <message>
        <source>your script</source>
        <translation>script của bạn</translation>
    </message>
    <message>
        <source>How the unique member is made: an id sent per request (lua/request-id.lua), now .. &apos;-&apos; .. math.random() (lua/random.lua), or now .. &apos;-&apos; .. a server INCR (lua/sequence.lua).</source>
        <translation>Cách tạo member duy nhất: một id gửi kèm mỗi request (lua/request-id.lua), now .. &apos;-&apos; .. math.random() (lua/random.lua), hoặc now .. &apos;-&apos; .. một lần INCR trên server (lua/sequence.lua).</translation>
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
        <source>Your script, called as KEYS %1 ARGV %2.</source>
        <translation>Script của bạn, được gọi với KEYS %1 ARGV %2.</translation>
    </message>
    <message>
        <source>Left: member = now. Right: the same timestamps with the %1 member.</source>
        <translation>Bên trái: member = now. Bên phải: cùng các timestamp đó, với member kiểu %1.</translation>
    </message>
    <message>
        <source>Requests in one millisecond share one member.</source>
        <translation>Các request trong cùng một millisecond dùng chung một member.</translation>
    </message>
    <message>
        <source>Every request keeps an entry of its own.</source>
        <translation>Request nào cũng giữ được một phần tử của riêng mình.</translation>
    </message>
    <message numerus="yes">
        <source>%n simulated app server(s), each with its own clock and connection.</source>
        <translation>
            <numerusform>%n app server mô phỏng, mỗi server có đồng hồ và kết nối riêng.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ClientLanes</name>
    <message>
        <source>One lane per app server; x is the &apos;now&apos; each request carried. A diamond under another server&apos;s square is a collision across servers. Wheel: zoom; drag: pan; double-click: fit.</source>
        <translation>Mỗi app server một làn; trục x là giá trị &apos;now&apos; mà mỗi request mang theo. Hình thoi nằm dưới hình vuông của một server khác là một lần trùng member giữa hai server. Cuộn chuột: phóng to/thu nhỏ; kéo: di chuyển; nhấp đúp: hiện vừa khung.</translation>
    </message>
    <message>
        <source>Fire the servers to see one lane per app server.</source>
        <translation>Bắn từ các server để thấy mỗi app server một làn.</translation>
    </message>
    <message>
        <source>stored: own member</source>
        <translation>được lưu: có member riêng</translation>
    </message>
    <message>
        <source>overwritten: ZADD replied 0</source>
        <translation>bị ghi đè: ZADD trả về 0</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1, %2 ms&lt;/b&gt;: %n request(s)&lt;br&gt;%3 stored, %4 overwritten</source>
        <translation>
            <numerusform>&lt;b&gt;%1, %2 ms&lt;/b&gt;: %n request&lt;br&gt;%3 được lưu, %4 bị ghi đè</numerusform>
        </translation>
    </message>
    <message>
        <source>x: now, ms since the start</source>
        <translation>x: now, ms kể từ lúc bắt đầu</translation>
    </message>
    <message numerus="yes">
        <source>columns of %n ms</source>
        <translation>
            <numerusform>mỗi cột %n ms</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>tallest %n request(s)</source>
        <translation>
            <numerusform>cột cao nhất %n request</numerusform>
        </translation>
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
        <source>redis://[[user]:password@]host[:port][/db] or unix:///path/to.sock[?db=N]</source>
        <translation>redis://[[user]:password@]host[:port][/db] hoặc unix:///path/to.sock[?db=N]</translation>
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
        <source>Stopped at line %1. ZSET: %2 member(s). %3</source>
        <translation>Dừng ở dòng %1. ZSET: %2 member. %3</translation>
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
        <source>Export Picture</source>
        <translation>Xuất hình ảnh</translation>
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
        <source>Cannot write %1: %2</source>
        <translation>Không ghi được %1: %2</translation>
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
    <name>HeadlessExport</name>
    <message>
        <source>The burst did not end within %1 s.</source>
        <translation>Burst không kết thúc trong vòng %1 s.</translation>
    </message>
    <message>
        <source>The burst could not start.</source>
        <translation>Không bắt đầu được burst.</translation>
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
        <source>%1 sent, %2 stored, %3 member(s) in the ZSET</source>
        <translation>đã gửi %1, lưu được %2, ZSET có %3 member</translation>
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
        <source>&lt;p&gt;One sorted set per client. Each request runs one Lua script, atomically:&lt;/p&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;Remove&lt;/b&gt; the entries older than the window (ZREMRANGEBYSCORE).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Add&lt;/b&gt; this request: score = its time, member = its identity (ZADD).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Count&lt;/b&gt; the entries (ZCARD): more than the limit means refuse.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Expire&lt;/b&gt; the key when the client goes quiet (EXPIRE).&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;The question of this lesson: what is the identity of a request?&lt;/p&gt;</source>
        <translation>&lt;p&gt;Mỗi client có một sorted set riêng. Mỗi request chạy một Lua script, một cách atomic:&lt;/p&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;Xoá&lt;/b&gt; các phần tử cũ hơn window (ZREMRANGEBYSCORE).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Thêm&lt;/b&gt; request này vào: score = thời điểm của nó, member = định danh của nó (ZADD).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Đếm&lt;/b&gt; số phần tử (ZCARD): nhiều hơn giới hạn thì từ chối.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Đặt hạn&lt;/b&gt; cho key để nó tự biến mất khi client ngừng gửi (EXPIRE).&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;Câu hỏi của bài học này: định danh của một request là gì?&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Show the script</source>
        <translation>Xem script</translation>
    </message>
    <message>
        <source>lua/now.lua is open: the four steps are marked in its comments.</source>
        <translation>Đã mở lua/now.lua: bốn bước được đánh dấu trong phần chú thích của nó.</translation>
    </message>
    <message>
        <source>Three requests in one millisecond</source>
        <translation>Ba request trong một millisecond</translation>
    </message>
    <message>
        <source>&lt;p&gt;The script uses the timestamp as the member: &lt;code&gt;ZADD key now now&lt;/code&gt;. Three requests arrive in the same millisecond, as a burst easily does.&lt;/p&gt;&lt;p&gt;Watch the timeline: one filled square and two hollow diamonds in one millisecond, and one row in the ZSET table.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Script dùng timestamp làm member: &lt;code&gt;ZADD key now now&lt;/code&gt;. Ba request đến trong cùng một millisecond, chuyện rất dễ xảy ra khi có burst.&lt;/p&gt;&lt;p&gt;Hãy nhìn dòng thời gian: trong một millisecond có một hình vuông đặc và hai hình thoi rỗng, còn bảng ZSET chỉ có một dòng.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Send 3 requests in one millisecond</source>
        <translation>Gửi 3 request trong một millisecond</translation>
    </message>
    <message>
        <source>Why: a member is unique</source>
        <translation>Vì sao: member là duy nhất</translation>
    </message>
    <message>
        <source>&lt;p&gt;A ZSET holds each member once. ZADD of a member that already exists does not add a second entry: it updates the score and replies &lt;b&gt;0&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;The three requests carried the same &lt;code&gt;now&lt;/code&gt;, so they were the same member: ZADD replied 1, then 0, then 0, and ZCARD stayed at 1.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Trong một ZSET, mỗi member chỉ có mặt một lần. ZADD một member đã tồn tại sẽ không thêm phần tử thứ hai: lệnh này chỉ cập nhật score và trả về &lt;b&gt;0&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;Ba request mang cùng một giá trị &lt;code&gt;now&lt;/code&gt;, nên với Redis chúng là cùng một member: ZADD trả về 1, rồi 0, rồi 0, và ZCARD vẫn đứng yên ở 1.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Show the member and its writes</source>
        <translation>Xem member và các lần ghi vào nó</translation>
    </message>
    <message>
        <source>member %1 was written by %2 request(s)</source>
        <translation>member %1 đã được %2 request ghi vào</translation>
    </message>
    <message>
        <source>Atomic is not correct</source>
        <translation>Atomic không có nghĩa là đúng</translation>
    </message>
    <message>
        <source>&lt;p&gt;Maybe it is a race? Send the burst over three connections at once. The script is atomic: Redis runs one call at a time, in order, and no call sees another half done.&lt;/p&gt;&lt;p&gt;The result is the same: no race happened. The data collided, not the threads.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Phải chăng đây là race condition? Hãy gửi burst qua ba kết nối cùng lúc. Script chạy atomic: Redis thực thi lần lượt từng lệnh gọi, theo thứ tự, và không lệnh gọi nào nhìn thấy một lệnh gọi khác đang làm dở.&lt;/p&gt;&lt;p&gt;Kết quả vẫn y như cũ: không hề có race condition. Thứ đụng nhau là dữ liệu, không phải các thread.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Send 30 requests over 3 connections</source>
        <translation>Gửi 30 request qua 3 kết nối</translation>
    </message>
    <message>
        <source>The consequence: the burst goes through</source>
        <translation>Hậu quả: cả burst lọt qua</translation>
    </message>
    <message>
        <source>&lt;p&gt;Set a limit of 5 requests per window and send 20 in one millisecond. The count the script returns never passes 1, so every request is admitted.&lt;/p&gt;&lt;p&gt;The counts chart shows the gap: the true number in the window climbs to 20, the returned count stays flat.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Đặt giới hạn 5 request cho mỗi window rồi gửi 20 request trong một millisecond. Count mà script trả về không bao giờ vượt quá 1, nên request nào cũng được cho qua.&lt;/p&gt;&lt;p&gt;Biểu đồ số đếm cho thấy khoảng chênh lệch: số request thật trong window tăng dần lên 20, còn count trả về thì vẫn nằm ngang.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Send 20 requests with limit 5</source>
        <translation>Gửi 20 request với giới hạn 5</translation>
    </message>
    <message>
        <source>%1 admitted with limit 5; %2 of them beyond the limit</source>
        <translation>%1 request được cho qua với giới hạn 5; %2 request trong số đó đã vượt giới hạn</translation>
    </message>
    <message>
        <source>The fix: a unique member</source>
        <translation>Cách sửa: member duy nhất</translation>
    </message>
    <message>
        <source>&lt;p&gt;Keep the time as the &lt;i&gt;score&lt;/i&gt; (it orders and trims the window) and give each request a member of its own: an id the caller sends (&lt;code&gt;ZADD key now request_id&lt;/code&gt;).&lt;/p&gt;&lt;p&gt;Left: the same 20 timestamps with member = now. Right: with a request id.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Vẫn giữ thời gian làm &lt;i&gt;score&lt;/i&gt; (score dùng để sắp xếp và cắt bỏ phần nằm ngoài window), nhưng cho mỗi request một member riêng: một id do phía gọi gửi lên (&lt;code&gt;ZADD key now request_id&lt;/code&gt;).&lt;/p&gt;&lt;p&gt;Bên trái: cùng 20 timestamp với member = now. Bên phải: với request id.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Compare both on the same timestamps</source>
        <translation>So sánh hai cách trên cùng các timestamp</translation>
    </message>
    <message>
        <source>member = now: %1 stored, %2 beyond the limit; request id: %3 stored, %4 beyond the limit</source>
        <translation>member = now: lưu được %1, %2 vượt giới hạn; request id: lưu được %3, %4 vượt giới hạn</translation>
    </message>
    <message>
        <source>Trap 1: math.random() is not random everywhere</source>
        <translation>Bẫy 1: math.random() không phải ở đâu cũng ngẫu nhiên</translation>
    </message>
    <message>
        <source>&lt;p&gt;A common fix is &lt;code&gt;member = now .. &apos;-&apos; .. math.random()&lt;/code&gt;. Redis 2.6 to 6.2 reseed Lua&apos;s generator with the same seed at the start of every script call, so the first &lt;code&gt;math.random()&lt;/code&gt; of every call returns the same number (0.17082803611217) and the fix still collides. Redis 7 keeps one generator running.&lt;/p&gt;&lt;p&gt;Your server is Redis %1.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Một cách sửa hay gặp là &lt;code&gt;member = now .. &apos;-&apos; .. math.random()&lt;/code&gt;. Redis từ 2.6 đến 6.2 seed lại bộ sinh số ngẫu nhiên của Lua bằng cùng một seed ở đầu mỗi lần gọi script, nên lần &lt;code&gt;math.random()&lt;/code&gt; đầu tiên của mọi lần gọi đều trả về cùng một số (0.17082803611217) và cách sửa này vẫn bị trùng. Redis 7 thì giữ một bộ sinh số chạy liên tục.&lt;/p&gt;&lt;p&gt;Server của bạn là Redis %1.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Send 100 requests in one millisecond with math.random()</source>
        <translation>Gửi 100 request trong một millisecond với math.random()</translation>
    </message>
    <message>
        <source>: this server reseeds per call, the fix collides here</source>
        <translation>: server này seed lại ở mỗi lần gọi, nên cách sửa vẫn bị trùng ở đây</translation>
    </message>
    <message>
        <source>: Redis %1 does not reseed per call; on 2.6 to 6.2 the same burst stores 1</source>
        <translation>: Redis %1 không seed lại ở mỗi lần gọi; trên Redis 2.6 đến 6.2, cùng burst này chỉ lưu được 1</translation>
    </message>
    <message>
        <source>Trap 2: microseconds merge into text</source>
        <translation>Bẫy 2: microsecond bị gộp lại khi đổi thành chuỗi</translation>
    </message>
    <message>
        <source>&lt;p&gt;&quot;Milliseconds collide, so use microseconds.&quot; But Lua writes a number into text with 14 significant digits: &lt;code&gt;&apos;req:&apos; .. 1710000000000123&lt;/code&gt; becomes &lt;code&gt;req:1.7100000000001e+15&lt;/code&gt;. Every request in the same 100 µs gets the same member (lua/microseconds.lua).&lt;/p&gt;&lt;p&gt;The burst below uses the wall clock in microseconds: the timestamps differ, the members do not.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&quot;Millisecond bị trùng thì chuyển sang microsecond.&quot; Nhưng Lua đổi một số thành chuỗi chỉ với 14 chữ số có nghĩa: &lt;code&gt;&apos;req:&apos; .. 1710000000000123&lt;/code&gt; trở thành &lt;code&gt;req:1.7100000000001e+15&lt;/code&gt;. Mọi request trong cùng 100 µs đều nhận cùng một member (lua/microseconds.lua).&lt;/p&gt;&lt;p&gt;Burst bên dưới dùng đồng hồ hệ thống tính bằng microsecond: timestamp thì khác nhau, nhưng member thì không.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Send 300 requests with microsecond timestamps</source>
        <translation>Gửi 300 request với timestamp tính bằng microsecond</translation>
    </message>
    <message>
        <source>%1 distinct microsecond timestamps were stored as %2 members</source>
        <translation>%1 timestamp microsecond khác nhau chỉ được lưu thành %2 member</translation>
    </message>
    <message>
        <source>Trap 3: EXPIRE counts seconds</source>
        <translation>Bẫy 3: EXPIRE tính bằng giây</translation>
    </message>
    <message>
        <source>&lt;p&gt;The article&apos;s script ends with &lt;code&gt;EXPIRE key window&lt;/code&gt;, the window in milliseconds. EXPIRE takes seconds: a 1000 ms window keeps an idle key for 1000 s, a 60000 ms window for 16.7 hours. The count stays right (ZREMRANGEBYSCORE trims), but idle keys linger and use memory. PEXPIRE takes milliseconds.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Script trong bài viết kết thúc bằng &lt;code&gt;EXPIRE key window&lt;/code&gt;, với window tính bằng millisecond. Nhưng EXPIRE nhận số giây: window 1000 ms sẽ giữ một key không còn dùng đến trong 1000 s, window 60000 ms thì giữ tới 16,7 giờ. Count vẫn đúng (ZREMRANGEBYSCORE đã cắt bỏ phần cũ), nhưng các key không dùng nằm lại rất lâu và chiếm bộ nhớ. PEXPIRE mới là lệnh nhận millisecond.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Send 1 request and read the key&apos;s TTL</source>
        <translation>Gửi 1 request rồi đọc TTL của key</translation>
    </message>
    <message>
        <source>window 1000 ms, TTL of the key %1 s: %2 times longer than the window</source>
        <translation>window 1000 ms, TTL của key là %1 s: dài gấp %2 lần window</translation>
    </message>
    <message>
        <source>the key has no TTL (%1)</source>
        <translation>key không có TTL (%1)</translation>
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
        <source>Lesson</source>
        <translation>Bài học</translation>
    </message>
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
        <source>&amp;View</source>
        <translation>&amp;Xem</translation>
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
        <source>Collision &amp;Curve and Servers…</source>
        <translation>Đường &amp;cong va chạm và server…</translation>
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
        <source>&amp;Help</source>
        <translation>Trợ &amp;giúp</translation>
    </message>
    <message>
        <source>&amp;About zsetlab</source>
        <translation>&amp;Giới thiệu zsetlab</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Ngôn ngữ</translation>
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
    <message>
        <source>Fire at a remote server?</source>
        <translation>Bắn vào một server ở xa?</translation>
    </message>
    <message>
        <source>%1 is not on this machine. A burst writes thousands of requests to it (under keys starting with zsetlab:). Fire only at a server that is yours to load.</source>
        <translation>%1 không nằm trên máy này. Một burst sẽ ghi hàng nghìn request vào server đó (dưới các key bắt đầu bằng zsetlab:). Chỉ bắn vào server mà bạn được phép tạo tải.</translation>
    </message>
    <message>
        <source>Not connected to Redis: use Connect… first.</source>
        <translation>Chưa kết nối tới Redis: hãy bấm Kết nối… trước.</translation>
    </message>
    <message>
        <source>Cannot fire</source>
        <translation>Không bắn được</translation>
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
        <source>Done: %1 sent, %2 stored, %3 lost.</source>
        <translation>Xong: đã gửi %1, lưu được %2, mất %3.</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 is ready: press F5 to fire it.</source>
        <translation>%1 đã sẵn sàng: nhấn F5 để bắn.</translation>
    </message>
    <message>
        <source>%1 — zsetlab</source>
        <translation>%1 — zsetlab</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Không ghi được %1: %2</translation>
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
        <source>S&amp;tep Through the Next Request…</source>
        <translation>Chạy &amp;từng bước request tiếp theo…</translation>
    </message>
    <message>
        <source>%1 on %2, now = %3 (the last request&apos;s millisecond)</source>
        <translation>%1 trên %2, now = %3 (millisecond của request cuối cùng)</translation>
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
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Không ghi được %1: %2</translation>
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
        <source>Redis %1 · %2 · %3</source>
        <translation>Redis %1 · %2 · %3</translation>
    </message>
</context>
<context>
    <name>ServersDialog</name>
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
        <source>&amp;Clock</source>
        <translation>Đồng &amp;hồ</translation>
    </message>
    <message>
        <source>unique: request id</source>
        <translation>duy nhất: id của request</translation>
    </message>
    <message>
        <source>unique: random</source>
        <translation>duy nhất: ngẫu nhiên</translation>
    </message>
    <message>
        <source>unique: sequence</source>
        <translation>duy nhất: số thứ tự</translation>
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
        <source>Fire</source>
        <translation>Bắn</translation>
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
        <source>(choose one)</source>
        <translation>(chọn một)</translation>
    </message>
    <message>
        <source>Not connected to Redis: connect in the main window first.</source>
        <translation>Chưa kết nối tới Redis: hãy kết nối ở cửa sổ chính trước.</translation>
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
        <source>Cannot write %1: %2</source>
        <translation>Không ghi được %1: %2</translation>
    </message>
    <message>
        <source>Export Table</source>
        <translation>Xuất bảng</translation>
    </message>
    <message>
        <source>Fire the servers first: the table is empty.</source>
        <translation>Hãy bắn từ các server trước: bảng đang trống.</translation>
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
        <source>Server lanes</source>
        <translation>Các làn server</translation>
    </message>
    <message>
        <source>Servers table</source>
        <translation>Bảng server</translation>
    </message>
    <message>
        <source>Export Picture</source>
        <translation>Xuất hình ảnh</translation>
    </message>
    <message>
        <source>schedule (exact)</source>
        <translation>theo lịch (chính xác)</translation>
    </message>
    <message>
        <source>system-ms (wall)</source>
        <translation>system-ms (đồng hồ hệ thống)</translation>
    </message>
    <message>
        <source>now (the bug)</source>
        <translation>now (lỗi)</translation>
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
    <name>SweepExport</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Không ghi được %1: %2</translation>
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
        <source>Load a remote server?</source>
        <translation>Tạo tải lên một server ở xa?</translation>
    </message>
    <message>
        <source>%1 is not on this machine. This writes thousands of requests to it (under keys starting with zsetlab:). Fire only at a server that is yours to load.</source>
        <translation>%1 không nằm trên máy này. Thao tác này sẽ ghi hàng nghìn request vào server đó (dưới các key bắt đầu bằng zsetlab:). Chỉ bắn vào server mà bạn được phép tạo tải.</translation>
    </message>
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
        <source>&amp;Clock</source>
        <translation>Đồng &amp;hồ</translation>
    </message>
    <message>
        <source>unique: request id</source>
        <translation>duy nhất: id của request</translation>
    </message>
    <message>
        <source>unique: random</source>
        <translation>duy nhất: ngẫu nhiên</translation>
    </message>
    <message>
        <source>unique: sequence</source>
        <translation>duy nhất: số thứ tự</translation>
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
        <source>With a limit, the table and the chart also show the share admitted while the true number of requests in the window was above it.</source>
        <translation>Khi có giới hạn, bảng và biểu đồ còn cho thấy tỉ lệ request được cho qua trong khi số request thật trong window đã vượt giới hạn đó.</translation>
    </message>
    <message>
        <source>&amp;Limit</source>
        <translation>&amp;Giới hạn</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>Chạy quét</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Dừng</translation>
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
        <source>&amp;Sweep</source>
        <translation>&amp;Quét</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Chạy</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Dừng</translation>
    </message>
    <message>
        <source>Simulated &amp;Servers…</source>
        <translation>&amp;Server mô phỏng…</translation>
    </message>
    <message>
        <source>Not connected to Redis: connect in the main window first.</source>
        <translation>Chưa kết nối tới Redis: hãy kết nối ở cửa sổ chính trước.</translation>
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
        <source>Export Table</source>
        <translation>Xuất bảng</translation>
    </message>
    <message>
        <source>Run a sweep first: the table is empty.</source>
        <translation>Hãy chạy quét trước: bảng đang trống.</translation>
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
        <source>Collision curve chart</source>
        <translation>Biểu đồ đường cong va chạm</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>Bảng</translation>
    </message>
    <message>
        <source>Export Picture</source>
        <translation>Xuất hình ảnh</translation>
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
        <source>schedule (exact)</source>
        <translation>theo lịch (chính xác)</translation>
    </message>
    <message>
        <source>system-ms (wall)</source>
        <translation>system-ms (đồng hồ hệ thống)</translation>
    </message>
    <message>
        <source>now (the bug)</source>
        <translation>now (lỗi)</translation>
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
    <message>
        <source>&lt;br&gt;kept: #%1, member &lt;tt&gt;%2&lt;/tt&gt;, score %3, reply count %4, added %5</source>
        <translation>&lt;br&gt;được giữ: #%1, member &lt;tt&gt;%2&lt;/tt&gt;, score %3, count trả về %4, added %5</translation>
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
        <source>The live contents of the ZSET, sorted by score. Writes: how many requests of the burst wrote that member.</source>
        <translation>Nội dung hiện tại của ZSET, sắp xếp theo score. Số lần ghi: số request của burst đã ghi vào member đó.</translation>
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
</context>
</TS>
