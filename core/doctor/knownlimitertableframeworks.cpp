// The known limiters of web frameworks (PHP, Python, .NET), job queues (Ruby) and gateways (Apache
// APISIX, ShenYu's concurrency limiter): a part of the table in knownlimitertable.cpp, kept apart
// to keep each file small. Fingerprints only, as there; the texts are in tests/upstream-limiters/.

#include "knownlimitertable.h"

#include <QCoreApplication>

namespace KnownLimiters {

const QVector<KnownLimiter>& frameworkLimiters()
{
    static const QVector<KnownLimiter> known {
        {"laravel-concurrency-limiter",
         "Laravel ConcurrencyLimiter",
         "10.x on",
         "https://github.com/laravel/framework/blob/00115166ca2ad92416967700915b71efcf203478/src/Illuminate/Redis/"
         "Limiters/ConcurrencyLimiter.php",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key}1 {key}2 {key}3 {key}4 {key}5", "{key} {window_s} {uuid}", "", "", 0},
         "420ca604de4310d8301943a71390ee669720d640",
         "f48502bf5fa2644a93492407a00141deefffc53b",
         56,
         "MGET SET",
         "07e04d910bcc80e80be2484a0f53cf2d109a5abf12b721c11b17b7a31e6d47e71f125c552067c1692d786d462f629801"
         "2f789ba33a0b34203e5db03e3ee641a6401a4a2d4632d47948c5cc37551622f25c9ed4ee68c3c02d6e0ce5167c8446de"
         "7eda82098185de2e842c70c4843349a684a2a5fd84fe945e87e970c988becb7589dfec318edf82b390c6ba119c5bd141"
         "b22c1ef5b3761a72b9cf8149bcbcc849bdc65021be5de88dc1b8422dc52379f2c8d407daca7e7e88ccaa358dd9d02df3"
         "de5314eae4a348ede61aef8ae868aa7d"},
        {"laravel-duration-limiter",
         "Laravel DurationLimiter",
         "10.x on",
         "https://github.com/laravel/framework/blob/050bd03332aab0abbb56f6b653495db611992b64/src/Illuminate/Redis/"
         "Limiters/DurationLimiter.php",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key}", "{now_s} {now_s} {window_s} {limit}", "", "", 0},
         "29cc07bd431ccbf64637e5dcb60484560fdfa2da",
         "ccb2304eab313f3a3e2ba1856a465600be72008f",
         223,
         "HMSET EXPIRE EXISTS HGET HGET HINCRBY HGET HGET",
         "01bd9bc904f2063604fe5403055f077f07aa43050a49528d0baf88230d0bf9160f22bf8010d68a3b125b175612b721c1"
         "1477a3d8188a32561a61b28e1aa20e601d3782131df7ac022035249322b07e7e24dda79a2590edeb26bcb0e92bc39b00"
         "2d9a49e32ecc08ac3095bfc730d90b68310fb865311203c33126f7c83152f66c319ccd4c31d5c08833a6e76535529494"
         "36a6815136af0bba375fe06c37fe94a538e912593b43ec973cb543043d2d255c3e5c7f993f34d9933f782cf7420b16d4"
         "42369a5c438d1cdf45103df14795381e47a684f74aa86e3b51bc1b2c52a6bf4d55237dd2560bc35f57ba4cc55977e271"
         "5b793c1d5e297bb75fdf7dcd61b7ad7c62a1d8b4641443ca67bd01376a0c55466a7cb2476c798bfa6ddcf93c723f13b2"
         "76da786e779a80c0797939b179ccddf27d644ad9806324fc81b6168481df2426843349a685bed0ed878fe83988e41380"
         "89d1e7ac8ec3625c8fb0826e92b1db139487ad46956074cf96025222964711b7970c8d1299680ade9dbf6c7c9e58a71d"
         "9e6f111ea4891ee9a59b83afa5bf02e5a6d21887a7386885aa24c7caacde7234ae31865cae8c3501af1809eeb9cf8149"
         "baa5c23abcce58dabcf1dee8bd2c16d3be5de88dbf83f9e6bf8e9ddcc125a459c1d2bcf3c46aa1abc66b0b17c92ba33a"
         "ca5f5445caa148c0cab23217ceac7351cefe452cd0634890d9fcfd41da79d6d0da85179fda8e0a17db901a90dd60f0eb"
         "dfeb8040e058cfe2e2a8a353e6460e02e6e9418be83383fce868aa7de94680c1eb7b7a31ec110d0bf04ae991f17b1dbf"
         "f2b71fa7f5892beef6a0e2a0f6b077e7f718fde3f7492140f960bd71fb7f43dbfb81a6cefcc1aa37fd02c0bdfda9d7c4"},
        {"limits-moving-window",
         "limits (Python) moving window",
         "at the cited commit",
         "https://github.com/alisaifee/limits/blob/278e94da3209e9cfd8e15164830123f0083f1e77/limits/resources/redis/"
         "lua_scripts/acquire_moving_window.lua",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key}", "{now_s} {limit} {window_s} 1", "", "", 0},
         "77b40b29108021474c9ccdf7779b2ecbf86d78e1",
         "330c59354056051fbfc5cedfc708765bcaa5820d",
         144,
         "LINDEX LPUSH LTRIM EXPIRE",
         "05cad3600ca0dad20fe8ea611147c79e13ba19e61477a3d8188a325618e878c9192a7039192daae2194f37d119596e03"
         "1daebe191fd6b8732042b7f5225c8598267efcad28a15eda28eb0bd52cbeac632cd0c2e82dabe0b42f9b401d3045acc1"
         "310c701d36bf8d7c3a55303a3d360f503dc25df13e65fd6640fa5ad04458a3de45cd76b74aa86e3b4c02ab864c389c1c"
         "4ded046c4e7d2cb25101bf005149ee435194cc935509a10856182490587db6c858a1ff935a27a59b5fd6ab455fdf7dcd"
         "60aaa8f56332b987656ef45965d4a0b968ab0156742124837a6e87867c233151813c9340851d584a85bed0ed85d01a0e"
         "85f2b61a86a20ce68859b55c898bcda28f5528f59009511d92af9c7c92c9e40e9586e39e9a340b609ac6bfcc9ae5745e"
         "9f4338e19f94d80d9ff7ce41a0f58c9ba3643cfda4ee0a43a57129c6a5a0ddd8a786e7c6a955fee5a9b53d5baab826d2"
         "ac671370ae8c3501b0b2424db0e38ffab184cc0bb216cdffb753deddbb379396bcbcc849bf429b67c064685dc2f3b837"
         "c645072ac75c08cfc7ca021fc89e4a82cda9c874ce39f688d0b95b98d0d25f61d7c5ca6dd8d255f0db4bf680db98398d"
         "de708fb5e1175bdae4a49979e54c99b4e95f9dd5eee0eb2ff01a7378f082ae8af21e79c6f26f0c7cf391ee88f484d51c"
         "f4ed992ef5bd8e5af75c3a88f816bb0df9ea4794fa6f97f6fe883831"},
        {"fastapi-limiter",
         "fastapi-limiter",
         "0.1.x",
         "https://github.com/long2ice/fastapi-limiter/blob/0d64f1fabe7ed839621d6c38a16273d812ead4eb/fastapi_limiter/"
         "__init__.py",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key}", "{limit} {window}", "", "", 0},
         "a3f9e982197e9e887f6b5dcb7ec273863bb83aad",
         "020e29a1801a1a4c63751c9fc592a95ad5d50bcf",
         91,
         "GET PTTL INCR SET",
         "00350ac600e58e3305cad3600927bd160a49528d0e2db47613b795f7193bf95c1c2048581d93975f1ee5f07720665919"
         "260ff4f530b5483731772862338e8f29359523d0372cb75e3dce26f53e179dbd4549bdb95149ee4357bf8e4e586ec017"
         "5d3f644b60d3e188655bc97c65d4a0b96d95196b73a5963a7421248375500feb7850c6a47efebaaa802b4ffd80a617aa"
         "82e0615d851d584a880fd041886c928588bfdcbd8dd4cf69912d7f0493bd52c99671b6ba96b5b94899a444319df3bce5"
         "9e3a92049fcb6abea4687346a621b5c4a89065a9aa585304b3d1edf6b6611fceb733a161b796e2f7bbb53c64be49d028"
         "becb5566bf7b206fc89e4a82ca08f297d0ddb59fd5236d5dd8d255f0da76ca67dc909299dfda7299e04613bae1a10041"
         "e3317cd2e5c0dba1e6621573e6b4b8b8e6fc1deee868aa7df2b71fa7f45be5d4f4e607c1f5bd4e12f684fa04f7253501"
         "fd5a3753ff73d726"},
        {"apisix-limit-count-redis",
         "Apache APISIX limit-count (Redis policy)",
         "at the cited commit",
         "https://github.com/apache/apisix/blob/03be4912beb2153d6412594feac9cb7370fc9395/apisix/plugins/limit-count/"
         "limit-count-redis.lua",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key}", "{limit} {window_s}", "", "", 0},
         "daef7b188311df01a8b7981a304ff28fadea8e83",
         "09214c735358037074289537941436497a5c0030",
         63,
         "TTL SET INCRBY",
         "05271c26056e8d1607332c4907e04d910bcc80e811d515cc1c82cf5f1f125c55203524932067c169253e43382f629801"
         "2fd44b593ee641a63ef4156b406364a341480e3d432ccb0a463c56c0467f55f15876ea2a5d1eea715fdf7dcd67bd0137"
         "68c3c02d6f29743e76dbd9997c0bf0b7843349a684fe945e87e970c988becb758a26e0329c5bd1419c64206f9ff85279"
         "a526df00a699aa6cae8c3501b75ccc95b893fee2bcbcc849ca7e7e88ca99e729d75cc748d9a3dedede730498dfeb8040"
         "e5135b20ed589cb9f2b71fa7f9d46337fb81a6cefcdf86c0"},
        {"aspnetcore-redis-token-bucket",
         "RedisRateLimiting (ASP.NET Core) token bucket",
         "at the cited commit",
         "https://github.com/cristipufu/aspnetcore-redis-rate-limiting/blob/04cad092ff09cfbb23b0eb3d7852fddd142edee3/"
         "src/RedisRateLimiting/TokenBucket/RedisTokenBucketManager.cs",
         QT_TRANSLATE_NOOP("KnownLimiters",
                           "Its keys live floor(2 × token limit / tokens per period) seconds, a count of periods "
                           "taken for seconds: with a period longer than a second the bucket is forgotten and comes "
                           "back full too early, and when more than twice the limit is refilled per period the TTL "
                           "rounds down to 0 and SETEX refuses it (\"invalid expire time\"), so every call fails."),
         "https://github.com/cristipufu/aspnetcore-redis-rate-limiting/issues/46",
         nullptr,
         nullptr,
         true,
         {"{key} {key}:ts", "{limit} {limit} 1 {now_s} {window_s} {key} {key}:ts", "", "", 0},
         "a6d15945df6907ef20c17e98d7065383b8d6ebc2",
         "1e1f3d2328f24966a1c28f50f7cee0a744b0ac75",
         210,
         "GET GET SETEX SETEX",
         "01b3538503983d5403b36c1905cad36005fd2b940693bc5907d505af07facef40a2195b60a49528d0b117d6b0ca0dad2"
         "0e1654270e69e1d80fb64325120d204b13625bd41451c8531477a3d81484ebf9173f0d65188a32561a924c141a9489cd"
         "1c8a9f6a1e1eadf01e3840982093494320ad92a120afd1382393088725ba6e96261733722786d7b02860c2c728a15eda"
         "293f712629790b292abb60892ae70cb82bb486922d03f2d72d3aa3b32e6932ac30798a3930a2fd81316c7c6032bf331c"
         "33b25cfa340ed24035e38cda36ad932036e3b98736e91175380f7a9438d2e8793a07cd9c3e5887b4426b7ece42ada598"
         "43607eed45cd76b746caf448476b74f5477500cf492f1e2b494bb3d54aa86e3b4dc9aa8b5149ee43519bbffb530c5790"
         "581870ac58ad8a15592586d65999041d5b2a83845b356fd15b6796255d4538bd5ff8aec260f3454d64ddf2306543e318"
         "655bc97c6571f39865d4a0b967259a5d7421248378356293798f55327a2083477ab30e5a7b5362a67b57dd3d7bbdc2b9"
         "7c3a80d0810633388313908e840abcba851d584a856c930285bed0ed85c10f8485d01a0e86be8d1588bfdcbd89b51309"
         "8af497338d60b4d98da708c38db8b6e28e58d58991abd22492514f8d92af9c7c92c525fe934a46a295767258965ec21f"
         "9948140e9a7aa8139f3d12a19fe1c85e9ff7ce419ffe804aa76988b3a7b015b0a97e84aaaa674692aaa0a3fdad1108b2"
         "ae4bb159b03e36bcb1121492b1c4dc07b2537d41b3a5d5b4b65cd949b6881565b8618b24b90e5309b95aaed5b9ef66e6"
         "bafad16dbbb53c64bbd96844bcbcc849be01ff8cc1bfbab8c391e8cbc4411921c5adb9b9c652fd1cc6ff8e45c70bdca7"
         "c89e4a82cabaae6ccbe1ffb7ccf44042d05cdb50d0b95b98d26a387ad8d255f0d954e5f8dc90222fdd8d1632e2c22c5b"
         "e32c527fe53ec5a9e77c77e8e841b571e868aa7de88e39bce904fa72ecf253e8eed1950bf1f151a5f2bc8fc5f2c48dbd"
         "f3490d78f36a1327f75a2300f7d4f845f9a67c07f9eeb4ebfabe241f"},
        {"aspnetcore-redis-sliding-window",
         "RedisRateLimiting (ASP.NET Core) sliding window",
         "at the cited commit",
         "https://github.com/cristipufu/aspnetcore-redis-rate-limiting/blob/04227a4bddf9895c080703b0b428a6c3ccbee3db/"
         "src/RedisRateLimiting/SlidingWindow/RedisSlidingWindowManager.cs",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key}", "{limit} {now_s} {window_s} {key} {uuid}", "", "", 0},
         "9e1de8f556a7dea288121759eebd723bfcdce873",
         "59210797df3d8c65fd2287c64d935d3846a19292",
         112,
         "ZREMRANGEBYSCORE ZCARD ZADD EXPIREAT",
         "05cad360084dbab10ab4d56e0ca0dad212b778c015b65e4d17d7d3471879a977188a32561c9aab131d4876bb1f41cac2"
         "223e5aca23f08f7d28a15eda31dbd82c345d120d34d5ba633523a86636ad932042c5f94245cd76b7463fc26d47e0648e"
         "48468c254aa86e3b4fbb6d5c5012c8a05149ee435417714859c803ec5cdbde4964c9ddb265d4a0b966b2663f680ddbdc"
         "6b8a23756c1807e16cb87fda73be5cf5742124837705f23779c94c087b5362a67ce5e61c7de168db7e082e71808da53c"
         "81189733813c934083935f9584a7f99784fe945e851d584a85d01a0e86c03be287022947885be6e18a20f8508b464d6e"
         "8eb3511491ba6fd492af9c7c96ac478e978160059a316ac49f94d80d9fbb380f9ff7ce41a3b8f944a3f19b5aa8cccbb0"
         "bb7908c7bcbcc849bfbde90fc31ed49cc404aafbc49b9264c5bb8f53c645072ac7b705d6c8519440c89e4a82ce522a6e"
         "d0b95b98d306a87ed3bf14e1d6e9b4b8d8d255f0de708fb5e1523e32e83383fce962b1afeb4342fcee281bdff082ae8a"
         "f2846a85f92ec766fa36b29efb8edca1"},
        {"shenyu-concurrent",
         "Apache ShenYu concurrent limiter",
         "after 2.6.0",
         "https://github.com/apache/shenyu/blob/8df91c42cd61fa8cbc97261d3890044eb15c8692/shenyu-plugin/"
         "shenyu-plugin-fault-tolerance/shenyu-plugin-ratelimiter/src/main/resources/META-INF/scripts/concurrent_requ"
         "est_rate_limiter.lua",
         QT_TRANSLATE_NOOP("KnownLimiters",
                           "The sorted set of requests in progress has no TTL, and only the gateway's callback after "
                           "a request removes its entry: a request whose callback never runs (a crash, an error, a "
                           "failed ZREM) keeps its slot for ever, and a few of them block the key for good."),
         "https://github.com/apache/shenyu/issues/6646",
         nullptr,
         nullptr,
         true,
         {"{key} {key}:{uuid}", "{limit} {limit} {now_s} 1", "", "", 0},
         "51a3d7d5fc6a0e07b758148938e23e0bce9b7e8d",
         "1d4c8eacf448f846fdcf5a9585427b5b192ddade",
         81,
         "ZCARD ZADD",
         "0ca0dad20e499a950f42bba41210fd5d14cfd95615b65e4d1873456b1c9aab131cd0342c213e15bf24dcfde4251d336e"
         "28a15eda28dc98992af3974a3256b5e639b852bc3f2da4134347842445cd76b748468c254a4c20ee52e263b25b356fd1"
         "6023119562635e7b64c9ddb265c2b63e6a9506db78d5831f7ce5e61c7e082e7180293d93813c934083e4191884fe945e"
         "85d01a0e86d39aed886e01e78936071f8dfb455391ba6fd492af9c7c9403ec6e96ac478e9f3ad0d59f94d80d9fcb6abe"
         "9ff7ce41a4687346b07a3707b3d1edf6b4c42228bcbcc849c2e59491c3074a16c31ed49cc4376de5c5196f89c69ff171"
         "c89e4a82cca34c6acd981a87d6955516d90555f2da21ec5bde708fb5e238ff1ee3035616e4662b35e4abcdd1ea1db3c1"
         "f082ae8af50e42f8fc368d3dff73d726"},
        {"sidekiq-throttled-concurrency",
         "sidekiq-throttled concurrency",
         "at the cited commit",
         "https://github.com/ixti/sidekiq-throttled/blob/21f9e5d9c66e323d9005ff53cce5f6ae909a471d/lib/sidekiq/"
         "throttled/strategy/concurrency.lua",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key} {key}:backlog", "{uuid} {limit} {window_s} {now_s}", "", "", 0},
         "f745bdde8b37f524b8a45e0d3cc998f32a3dfca6",
         "e1f485f188c3dc08eb8c3788de43fcd793a0a0d7",
         300,
         "ZCARD ZSCORE HGET HGET HSET HSET EXPIRE ZADD EXPIRE ZREMRANGEBYSCORE",
         "00bcaba1022c44d50332fdd9034e7eed03aca12a04ab79f80565a7330568277506ecc7a6074fd7af089a253309390487"
         "096a37a909e434af09f1e2bc0a49528d0b2e35df0c709a530ca0dad20d67a0980e6625e110282b861210fd5d1341a95c"
         "1477a3d81484ebf914bfb6f714f86c49169cb209171a0a3517ab79a7188a32561904f2a21a17c5261a61b28e1b5bdc42"
         "1c6b3a121cb2a3f41dfecc481e3840981f06b90c1f652e1b1f8b82a9204508f320899cb8213e15bf228eb8c9235c6da1"
         "236cf2792471c46225cc861526b4d2e526fae1ee273ed0bb27bc1c2427e5e330281f237d28a15eda28c8fc902966ece3"
         "29f281432a18e6e72abb60892bc39b002c31e03b2d7ef1dc2d9a49e32df5ec782ecf06a02f7719e62f8d7c653092196b"
         "3152f66c324bbaa83408c04e34e8c6b235125ea335fa642535fd113e37a6e30138bc3f713a594e593aafa04d3afbf5bb"
         "3b53ad093f6573ab406bd10340872f8d40b362844148a17142d425a743fb35f64568e60345cd76b745e7f03a47e23295"
         "48a583c6498262ec49de6cf24a1b8d694a9ff79d4aa86e3b4ae15cfe4b4a52814c0ee97e4c3152c64c4363ce4ccf5993"
         "4ec12cb94fbb2f1c50fbf5c352223edc523f2be45505b1f7588bb85059cfff575a1b14055b356fd15c8e69175d2c353e"
         "600b06b160315ef660beb24f61097df4611a618f63c1ff3064cad4e3652d5124655bc97c6772945a6bb015d46ddcf93c"
         "6ec40f1e70553def70bb3b4772316b517566f80a77193cbb7a00e5907b962f727c906a407ed1f523805a743181a0517b"
         "81a810db8379c89e85bed0ed85d01a0e8837814e8a3afc0d8a62ec308b0ef40a8b18efcc8c24eb938e72924190e10e1b"
         "910667e4911fc5ef91a389c991abd22491caa33292af9c7c931fe017936480c4938950d19535177a956f937895dcff9a"
         "96521a6f96e7f5269ab7d1149b0662909d0727109fcb6abe9ff7ce41a1100fc6a209bbe2a39a9890a4798aa4a518536e"
         "a5310a7da62aeab6a7d54009a8732c63a97d3f4fab2b0b1fabb73659ace0adecae31865cb05f58e3b0e01363b3d1edf6"
         "b491cb2db65b7c32b6b6c2b8ba6322f2baa21322bcbcc849bda7eca5bdc22555be24ff7abe347d8bbe4e64f2bf68f2c6"
         "bfbc3e0dc1d4a6b7c20d6012c303e8ecc34dcf21c51ea1aac527e6b1c5c65914c65f5b78c730d93bc8390be6c89e4a82"
         "ca230d45cca75b8ccce33db2cf27915fd0b95b98d1877890d4aec26fd4b9bad2d5da4992d69a3524d7f5544dd87b1d0f"
         "d8d4bfa0d915aef9d9445c2cd998075cda05c545da3c314edbe2c63bdd5d764fdd6b0b8ddf1c3214df54e847df57cf3f"
         "dfe87791e06c8a84e15290b5e17d2255e19a3eeee1aaf075e20b17b8e38ad0b0e868aa7de88e39bce94081d0eaaeab6f"
         "ebb3af87ec247cd7ec6dbc77eda77eb3ef359dc2ef61db99f060c4dbf082ae8af0cca111f1088febf10e2d15f2b71fa7"
         "f4aa71fff4ed153df6b077e7fb67dc70fc0fe10bfc1eee60fcd9577afd822fc6fde92160fe0f3be8feb689abfed479f3"},
    };
    return known;
}

} // namespace KnownLimiters
