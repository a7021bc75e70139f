// The public libraries' limiter scripts zsetlab knows, of JVM and Go gateways and clients and of
// Node middlewares (the rest in knownlimitertableframeworks.cpp): a fingerprint of each version's text
// (zsetlab-cli doctor --fingerprint FILE), never the text, with what is known to be wrong with it.
// tests/upstream-limiters/ holds each text as published, named by the entry's id: the test holds
// every fingerprint here against it.

#include "knownlimitertable.h"

#include <QCoreApplication>

namespace KnownLimiters {

const QVector<KnownLimiter>& gatewayAndClientLimiters()
{
    // id, library, versions, source,
    // issue, issue's report, fixed in, fixed by, counts wrong,
    // {keys, args, setup, reply, window}: how the library calls it,
    // SHA1 (several: texts that differ only in layout), tokens' digest, tokens, commands,
    // runs
    static const QVector<KnownLimiter> known {
        {"redisson-rratelimiter-fixed-window",
         "Redisson RRateLimiter",
         "before 3.13.3",
         "https://github.com/redisson/redisson/blob/be46b914827c0630a5eb7574d3c735279f622016/redisson/src/main/java/"
         "org/redisson/RedissonRateLimiter.java",
         QT_TRANSLATE_NOOP("KnownLimiters",
                           "It counts in fixed windows that start anew all at once: up to twice the rate passes around "
                           "a window's end."),
         "https://github.com/redisson/redisson/issues/2931",
         "3.13.3",
         nullptr,
         true,
         {"{key} {key}:value {key}:value:c1", "1 c1", "HSET {key} rate {limit} interval {window} type 0", "", 0},
         "5bec93211d737622365d15a9a4f2537f9de8bea2",
         "e29d9f023a3ede05a4c3c83af791a2e6f8820e51",
         203,
         "HGET HGET HGET GET PTTL DECRBY SET DECRBY",
         "0010e97505cad3600625b26c0673e99207581651075dc7c508f8e3330ae50b370b34562c12c02dff13b9679014debdb6"
         "14eb50fa16325daa17b14e321ab8c6ba1b31188e1b66ab6c1d2ecb6d1e0ac0741ed342bb1ffaae502067c16920da5d00"
         "213e15bf239ffb9f245f064724a6f04e26921d4529233ea52a6b4b9b2bbc0cd92f9463f13139b8f432c03e2032d7750b"
         "33f30cd3349db4603704fbbc37e45d2939a2ced63bac3b893c58f4513ceca8273d649f4d3ef158754203927542452053"
         "42fe99a449b13eb54c7e99ea5042c82257ccc37e59950c195b9ec0ce5e6b7f535e9add885fdf7dcd600bcee0608b8894"
         "65234156694455d46b00ee5c6cd8652f73205d7f738ab3f27421248375a47e1f7603682b767e9550792d751e793e51c3"
         "7ac5b72b7b6df18a7c034aec812adc8784169802845f74c3851d584a8691d60b88bfdcbd89d787188a535f3b8a53eaf5"
         "8b8d1e5f8f7eb7aa9015262c91250e52912d7f0493e67ce8961dc8b6985bb17e9c64206f9da14bac9ef23cb5a022f3b9"
         "a05ae76fa457695ea46d3e06a49a4318a8ec670aaa585304aa8ba5eaab6e2cd4ae8c3501b1459cb3b19bda5fb2822ec9"
         "b43f5165b5c8324ab7f88bb7b9249d94bbb53c64bbf67d7bbe633f11be76a019c4004d51c58bb832c748bd80ca7e7e88"
         "ca9999a6cabf52bdcb776637ce62e272ce7024d3cf09019acf60a93fd145c644d1bc85b2d1d2d847d2070d52d46bcaca"
         "d5d8be61d69529c0d8443843dad5b750db739d58dd8c6d16dda4a551ddfc36fdded38e82dff80af9e2024067e3d78a34"
         "ea4d29a7f082ae8af27d8ad9f2b71fa7f38b3cddf39d134cf4b77741f4db1e02f81f23dff913a616f9590065fa4bbe20"
         "fd557273fe7a97affe963426ffee691efffd7bdd"},
        {"redisson-rratelimiter-3.13",
         "Redisson RRateLimiter",
         "3.13.3 to 3.13.6",
         "https://github.com/ykkssb/redisson/blob/5d621fd3c25205674e3d6fc5b8c83f3ce19acabe/redisson/src/main/java/org/"
         "redisson/RedissonRateLimiter.java",
         QT_TRANSLATE_NOOP("KnownLimiters",
                           "The script fails with \"bad argument #2 to 'unpack' (string expected, got nil)\" when it "
                           "looks for a permit that is not there, and with \"too many results to unpack\" when "
                           "thousands of permits expire at once."),
         "https://github.com/redisson/redisson/issues/3197",
         nullptr,
         "https://github.com/redisson/redisson/pull/3554",
         false,
         {"{key} {key}:value {key}:value:c1 {key}:permits {key}:permits:c1", "1 {now} {seq}",
          "HSET {key} rate {limit} interval {window} type 0", "", 0},
         "df5536206d0c440727a5f17ab38851a31af682c7",
         "c33196be9baa0b1080f97b8ed1340b518f81f415",
         448,
         "HGET HGET HGET GET ZRANGEBYSCORE ZREM SET ZRANGEBYSCORE ZADD DECRBY SET ZADD DECRBY",
         "0010e975007ef8c700f7b779012f459503b2b451056e8d16057e017105ae6bd205cad3600625b26c0673e99207581651"
         "075dc7c508ebbc4308f8e3330b34562c0da398480dce57c10e9779120f4b08110ff5bfa512b721c112c02dff13b96790"
         "14debdb614eb50fa14f18cc1152bf87e16325daa17b14e321b31188e1b66ab6c1bf487cf1d2ecb6d1e0ac0741ed342bb"
         "1ffaae50203d3e9d2067c169213e15bf2271c41c22a9b66b239ffb9f245f064724a6f04e252001bd258f0fcc266bd07c"
         "26921d4526bcb0e92775ea3627c4562c28a15eda29233ea52a1d290b2b2a66b42b9a10042ce2d8d82d329bfe2eb1c04d"
         "2f12b6522f9463f12fd6f59c3119fa2d3139b8f43155746432c03e20349db4603519059736c310fe3704fbbc375199b6"
         "37e45d293810e79b39649c20398baf7039a2ced639ab48133bac3b893c58f4513cb543043ceca8273d2d1b763d649f4d"
         "3d9453e93e5c7f993e760a293f617b5d403d021c40fa5ad04131b9ea4203927542adc31142b1079942fe99a444830c3e"
         "45cd76b7467ed29b48468c254951a3b64975c77649b13eb54b12a6974c7e99ea4d414e5b4e4c88d14fa9de07525bdbdf"
         "55c129a8563e4f4257ac242257ccc37e580f7b4759950c195b9ec0ce5c21a0d45dc4d55f5e6b7f535e9add885f122587"
         "5fdf7dcd600bcee060630a57608b889461421df863978ec264a4572364c9ddb265234156653532826b00ee5c6b26fbf1"
         "6b4f4d546b80aa8c6c52ea256cd8652f6d02b2e06d342675725c3d0572d1a5337310cdfa73205d7f73a0f15474212483"
         "74308b207579516675a47e1f7603682b769dab5a77dce6ba78e386e7792d751e793e51c379ce419a7a47133d7ac5b72b"
         "7b6df18a7c2576f07d9bf94a7eb465397eefedde7f57c8e07fb1df63801fd8b28068907c80c855a2812adc87836b384a"
         "8409c3c1843349a68441a130845f74c384e280fa84fe945e851d584a8579b09786687e0c8691d60b88bfdcbd89132e93"
         "89d787188a535f3b8a53eaf58b8d1e5f8ce3e59f8d63348d8e8b7e558ebf3d5f8f187d538f47db888f6a1b439015262c"
         "91250e529200b8c593b9a57593e67ce894d786d695d06f36961dc8b6977a00089842d30f985bb17e98f95e0e998866ab"
         "9a88b1149ac73a749c5bd1ad9c64206f9e8e76559ef23cb5a022f3b9a05ae76fa06baf79a1b03d7ba2daa978a3c5c207"
         "a457695ea46d3e06a49a4318a562ca33a8755b8fa8ec670aa9b53d5ba9d2ff2aaa585304aa8ba5eaab6e2cd4acbea16f"
         "ad102e71ae8c3501aea14a32af09d3eaafa507b8afaef811b109e085b1459cb3b19e6526b2822ec9b2a2b78eb340911f"
         "b43f5165b46d2079b654cd93b74e9ad6b77e9692b7f88bb7b825f014b9249d94ba764ee3baee0b38bbb53c64bbf67d7b"
         "bcbcc849be5de88dbe633f11c003aa05c02baa25c225c382c32de7e7c4004d51c58bb832c748bd80c85e17dcc932361a"
         "ca7e7e88ca9999a6cabf52bdcb776637cb94fdfdce087b48ce62e272ce7024d3cf09019ad107d58ad145c644d1bc85b2"
         "d1d2d847d1e319f5d2070d52d3b827e4d4066d07d46bcacad5d8be61d69529c0d6d8b3bad7785a55d7e4133ed801408a"
         "d8443843d98b0a02d9fb4ef8dad5b750db739d58dcb9bcaedcff2b49dd8c6d16ddfc36fdded38e82df69a58ddff80af9"
         "e2024067e38c8dbde4407be7e5c60fceea4d29a7ec55281ded09a451efe9ef76f070588df082ae8af1d22eb3f27d8ad9"
         "f38b3cddf3923937f39d134cf4870b50f4b77741f4db1e02f4e19135f543c9a8f7d903b7f81f23dff9d46337fa4bbe20"
         "fbdb8d7afcad90c1fd557273fdab997bfe7a97afffee691efffd7bddfffe4694"},
        {"redisson-rratelimiter",
         "Redisson RRateLimiter",
         "current, 2026",
         "https://github.com/redisson/redisson/blob/015da157fdafac42e13e18a1d4f90840449a13d7/redisson/src/main/java/"
         "org/redisson/RedissonRateLimiter.java",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key} {key}:value {key}:value:c1 {key}:permits {key}:permits:c1", "1 {now} {uuid}",
          "HSET {key} rate {limit} interval {window} type 0", "", 0},
         "861d9229367b5aa9889ee26c5c31be7baeba2153",
         "d23c9e1549de997e8d435be8e4ecddd6472d1048",
         638,
         "HGET HGET HGET GET ZRANGEBYSCORE ZREMRANGEBYSCORE ZRANGE SET ZRANGE ZADD DECRBY SET ZADD DECRBY HGET PEXPIRE "
         "PEXPIRE PEXPIRE PTTL PEXPIRE PEXPIRE",
         "0010e975007ef8c7008dcb9c029f041e036831a403b2b45103b81c3803ef083c0495196204cf04f5056e8d16057e0171"
         "05ae6bd205cad3600625b26c06670c9f0673e99207581651075a7500075dc7c507802b2707d2b0c208f8e333093044f5"
         "093418b709a383570b34562c0b6f047d0b806eac0be104a50c67cea10cdb6cc10d1d0bc40da398480e9779120f4b0811"
         "11a6eaae12b721c112c02dff1393dad013b9679014888f9614debdb616325daa1653705318a33b2918d2db6c190cc919"
         "1ac82c071b66ab6c1bf487cf1d0151cf1d031a431d2ecb6d1d6359ef1e0ac0741e92f1f81ffaae502024304f203d3e9d"
         "205b73fd2067c169207a628621045468213a3164213e15bf229f355d22a9b66b22d9ae1022f47a82239ffb9f2444022a"
         "245f064724a6f04e252001bd25da05dd26bcb0e92775ea3628a15eda29233ea529d0371f2a30cef22ad408f12b2a66b4"
         "2ce2d8d82d329bfe2eb1c04d2ee9e1a32f12b6522f9463f12fd6f59c3139b8f43155746431ca161b324660f0340fee3f"
         "349db460351905973523a86636a3d20c36c310fe3704fbbc375199b63810e79b38aa7e8739ab48133b66ebf83bac3b89"
         "3cb543043ceca8273d649f4d3e5c7f993e760a293f1352493f4a3b7f3f6518b9403d021c40fa5ad04131b9ea4148847a"
         "4203927542adc31142b1079942fe99a442ff7569435f14c244830c3e45cd76b746e1de0148468c25493fe72a4975c776"
         "49b13eb549bc4f894a17b0b44b12a6974b542d414c7e99ea4d414e5b4d5f65dc4de62eeb4e4c88d14fed17f150b0beed"
         "51dfc3ae5212cc1c525bdbdf52dc6b57547f6c7155c129a8563e4f4256751902571fbc7257340458580f7b4759950c19"
         "59fad2f45dc4d55f5e6b7f535e9add885eb4a7545ec81f3d5f107e895f1225875f4e98f75fdf7dcd600bcee060630a57"
         "608b889461421df861a9f40e6261f7966380f48063978ec264c9ddb265234156665fa4446b00ee5c6b26fbf16b4f4d54"
         "6b80aa8c6b8e80366bf065e16c52ea256cd8652f6d02b2e06d2634cb6d3426756f9158ba71cd1264725c3d0572d0d0a2"
         "72d1a53372d712857310cdfa73205d7f734ce2b573a0f15474041f5c7421248374a82f997564ffe27579516675a47e1f"
         "7603682b7635ce6c766b8f5977dce6ba787c8d8f792d751e793e51c37a1240ef7a47133d7ac5b72b7ace51c87b45a219"
         "7b5f79a67b6df18a7c2576f07c60e18d7c8a56ca7d9bf94a7dc073707f57c8e07fb1df63801fd8b28056ace38159d72e"
         "820dd8bf843349a684468c97845f74c384fe945e851d584a86687e0c8691d60b8748c516886737e688bfdcbd89132e93"
         "897a7dc889d787188a26660e8a535f3b8a53eaf58b8d1e5f8c7ccb8e8d16b8898d63348d8e2cca8b8e8b7e558f187d53"
         "8f6a1b439015262c908aea0790b6ccfe90c6532c9264259a92af9c7c93b9a57593e67ce8959a04a095d06f36961dc8b6"
         "977a00089842d30f985bb17e98c6749598f95e0e998866ab9a88b1149af950919c14ea019c209dcd9c64206f9e8e7655"
         "9ef23cb59f277fe39f3b193e9ff7ce41a0186b2ca022f3b9a05ae76fa06baf79a08dbae1a1b03d7ba2daa978a35d5ecf"
         "a3aa2870a4244de6a457695ea46d3e06a49a4318a4f806f5a53c9464a562ca33a63de2fda6b4ed5fa7901f0ca8755b8f"
         "a8ec670aa9b53d5baa124e8daa585304aa8ba5eaaa8e570aab6c8e2bab6e2cd4aba56cbeabed8f80acbea16fad51d5be"
         "ae8c3501aea14a32af0c4321af7fb3bdafaef811b021ad13b19bda5fb26f45fab2822ec9b2e00980b340911fb43f5165"
         "b4440ea8b46d2079b74e9ad6b77e9692b7f47fb3b7f88bb7b825f014b8cec73bb9249d94b98c9dc0ba09a345ba5d907f"
         "ba764ee3ba7b3614bb218d36bbb53c64bbf67d7bbc9e7858bcbcc849bd53e699bdbf887bbe5de88dbe633f11beac35e9"
         "bed7f1bfbef8bbc3bf2eebcfbfbde90fc009b752c02baa25c0bea79bc0f096f4c19ce83cc225c382c2729847c32de7e7"
         "c4004d51c4d9449ec67f3811c720e02ac748bd80c892f1a1c8ce2372c9ea55edca7e7e88ca9999a6cabf52bdcb058c8f"
         "cb776637cb94fdfdccf1594cce12aa8dce1f7943ce42a33cce62e272cef28614cf09019acff0fa66d137a213d145c644"
         "d1bc85b2d1e319f5d2070d52d269c3b3d4066d07d42125d3d46bcacad5d8be61d5f8b7bbd69529c0d6af907ad6d8b3ba"
         "d8443843d98b0a02d9fb4ef8da9f7459dad5b750db739d58dc46d2a0dcb9bcaedcff2b49dd8c6d16ddfc36fdde34f45e"
         "de8b7a3eded38e82ded5fd1adf69a58ddfeb8040dff80af9e0e246a0e15b8982e1bd40e7e4407be7e51a9036e5c60fce"
         "e5ed9283e610b994e6a5afb7e97e0796ea08c0b9ea4d29a7ead04f3cedd62df2efe9ef76f082ae8af13c365ff27d8ad9"
         "f3923937f39d134cf4205228f4870b50f4b77741f4db1e02f4e19135f50b5a4bf543c9a8f5e83df3f60d541ef76a0c79"
         "f81f23dff87b555bf880205ef913a616f949ca42f9bcc6c9f9d46337fa4bbe20fbd8d0bbfbdb8d7afd557273fdab997b"
         "fe7a97affffd7bddfffe4694"},
        {"shenyu-sliding-window-2.5",
         "Apache ShenYu sliding window",
         "2.5.0 to 2.6.x",
         "https://github.com/apache/shenyu/blob/fa98dc077a1ad956665a371129f47dc5f99f5759/shenyu-plugin/"
         "shenyu-plugin-ratelimiter/src/main/resources/META-INF/scripts/sliding_window_request_rate_limiter.lua",
         QT_TRANSLATE_NOOP(
             "KnownLimiters",
             "EXPIRE gets the window as a fraction of a second when it is not a whole number of seconds, and Redis "
             "refuses it (\"ERR value is not an integer or out of range\"), after the request was stored."),
         "https://github.com/apache/shenyu/issues/3771",
         nullptr,
         "https://github.com/apache/shenyu/pull/5286",
         false,
         {"{key} {key}:{uuid}.timestamp", "{limit/window_s} {limit} {now_s} 1", "", "", 1000},
         "27e4b651a0d2d86c0af4e6bc787ab59ad373310f",
         "ddf7a038b46db4c65d730a0fe03e57fbe626fdd4",
         155,
         "EXISTS ZCARD ZADD ZREMRANGEBYSCORE EXPIRE",
         "0032a1b002668c9e02edc07e052857e105cad3600693bc590ca0dad20f0af398112d4d0b1210fd5d1484ebf914c6ea8f"
         "15b65e4d1790fda81879a977188a32561c61a5681c8ffd071e16e0871e3840981fba572120eb17c9213e15bf21fc7f7c"
         "278c656e28a15eda2abb60892cbeac632cfe62d12ec40c842f7cc3172f9253dc30239aa03523a8663960450a39bec361"
         "3c3d760b3fe3008d400d91614322ea9743ff417444f92aed4586a71345cd76b747a3937548468c254b9db1fb5149ee43"
         "518fd53258608dec5944e3445b356fd15c7d9b9461cc78b261f2e66c649e9e1764c9ddb265d9947e66b429cc6d5b5436"
         "6e1d3a6d702494797100ce56717c79fa7421248374a1da2a7944d84c80af49ef8160c15b82d2c9a384a6db88851d584a"
         "85c616a785d01a0e8755e7c287631735886e01e78938a3e38be04be38e6045cf8e9ab0e091ba6fd492af9c7c9403ec6e"
         "95e05e5d982b8daf9bbf544d9c2702ec9d4446509fcb6abe9ff7ce41a148a4cda25e8429a6fefeafb3d1edf6b56897fc"
         "b6532194b8d20ad3b91e3e90b9f23cf1bcbcc849be96116fbf523e7ebf75c5ffbfbde90fc1b4cf13c645072ac652fd1c"
         "c680f664c7f208d9c88257b2c89e4a82c90e0685cc2b5206cde180a4ce50ad6acf06d307d05806bfd0981b46d2e01c12"
         "d36bc2b9d50f16b9d57b390fd646b8c8d675ec75d6a8ea33d6b9b275d7120497d933cd20db4bf680ddc21185df1657ce"
         "e7130c02e7874175e86816bbe88e39bceb21ec30ebed06fcedc4dbb8eefa9755efdeb3e5f082ae8af2d75c32f5caf136"
         "f6e5f860f6f0b1c5f9c4bfa7fb2981c0"},
        {"shenyu-sliding-window",
         "Apache ShenYu sliding window",
         "after 2.6.0",
         "https://github.com/apache/shenyu/blob/a001551002f2940f4f7ee39dabd9b97810176b88/shenyu-plugin/"
         "shenyu-plugin-fault-tolerance/shenyu-plugin-ratelimiter/src/main/resources/META-INF/scripts/"
         "sliding_window_request_rate_limiter.lua",
         QT_TRANSLATE_NOOP(
             "KnownLimiters",
             "It counts with ZCARD before it removes the requests that left the window, so requests at the window's "
             "edge are refused while there is room (a fix is proposed in apache/shenyu#7120)."),
         "https://github.com/apache/shenyu/issues/6754",
         nullptr,
         nullptr,
         true,
         {"{key} {key}:{uuid}.timestamp", "{limit/window_s} {limit} {now_s} 1", "", "", 1000},
         "f439cc1a25596c5a87f56be40cad0db0d807f003",
         "8ed7dd7a157ecc76c5fe2fbc2e5409d2ad814e40",
         160,
         "EXISTS ZCARD ZADD ZREMRANGEBYSCORE EXPIRE",
         "0032a1b002668c9e02edc07e052857e105cad3600693bc590ca0dad20f0af398112d4d0b1210fd5d1484ebf914c6ea8f"
         "15b65e4d1790fda81879a977188a32561c61a5681c8ffd071e16e0871e3840981fba572120eb17c9213e15bf21fc7f7c"
         "278c656e28a15eda2abb60892cbeac632cfe62d12ec40c842f7cc3172f9253dc30239aa032693de33523a86638b21ec8"
         "3960450a39bec3613c3d760b3fe3008d400d9161406bd1034217dde44322ea9743ff417444f92aed4586a71345cd76b7"
         "47a3937548468c254b9db1fb5149ee43518fd532557301985944e3445b356fd15c7d9b9461cc78b261f2e66c649e9e17"
         "64c9ddb265d9947e66b429cc6d4573b06d5b54366e1d3a6d702494797100ce56711ccac7717c79fa742124837944d84c"
         "80af49ef8160c15b82d2c9a384a6db88851d584a8535d74d85c616a785d01a0e8755e7c287631735886e01e78938a3e3"
         "8be04be38e6045cf8e9ab0e091ba6fd492af9c7c9403ec6e95e05e5d982b8daf9bbf544d9c2702ec9d4446509fcb6abe"
         "9ff7ce41a25e8429a6fefeafab6898dab3d1edf6b56897fcb6532194b8d20ad3b91e3e90b9f23cf1bcbcc849be96116f"
         "bf523e7ebf75c5ffbfbde90fc1b4cf13c645072ac652fd1cc680f664c7f208d9c88257b2c89e4a82c90e0685cc2b5206"
         "cde180a4ce50ad6acf06d307d05806bfd0981b46d2785271d2e01c12d36bc2b9d50f16b9d57b390fd646b8c8d6a8ea33"
         "d6b9b275d7120497d933cd20db4bf680ddc21185df1657cee7130c02e7874175e86816bbe88e39bceb21ec30ebed06fc"
         "edc4dbb8eefa9755f082ae8af2d75c32f5caf136f6e5f860f6f0b1c5f9c4bfa7fb2981c0"},
        {"scg-request-rate-limiter-client-time",
         "Spring Cloud Gateway RedisRateLimiter",
         "2.x to 3.0, before November 2021",
         "https://github.com/spring-cloud/spring-cloud-gateway/blob/2821def4fdfdf2fa405311fbb1030f7300e0e6ee/"
         "spring-cloud-gateway-core/src/main/resources/META-INF/scripts/request_rate_limiter.lua",
         QT_TRANSLATE_NOOP(
             "KnownLimiters",
             "The gateway passes its own clock: a node whose clock is behind stores an older time, and the next call "
             "refills the bucket again, so more tokens are handed out than the rate allows."),
         "https://github.com/spring-cloud/spring-cloud-gateway/issues/2412",
         nullptr,
         "https://github.com/spring-cloud/spring-cloud-gateway/pull/2411",
         true,
         {"{key}.tokens {key}.timestamp", "{limit/window_s} {limit} {now_s} 1", "", "", 1000},
         "9d491aea731237273f4274f9ed9660b432b23791",
         "68fd3474465fa324e44a5adc3d3aacade46895e0",
         209,
         "GET GET SETEX SETEX",
         "03983d5403a91bf503ef083c0480b2f3056e8d1605cad3600693bc59072e4e8707eef3d60a2195b60a49528d0c03c22a"
         "0ca0dad20ce876300d25bb2a0e0b77091210fd5d1477a3d81484ebf914dd31ea173f0d65188a32561a9489cd1bbc5a22"
         "1c6781861e384098201acb3c2057e44220d4c73c213e15bf23a816bb25ba6e962711a42428a15eda29790b292a46773c"
         "2abb60892d3aa3b32e489cf632b2d4ce33467db333b25cfa340ed2403542e87c35bfc73b35e38cda36e3b98736e91175"
         "37133a653a07bfbf3a07cd9c3bd728013d85cc73400d9161426b7ece42ada5984322ea9745cd76b745ed1b5846886522"
         "477500cf47f1b3dc48cab76e49b1b0ec4aa86e3b4b917d1f4febe4915149ee43518fd53252fe32665315ce1853e381fc"
         "587f4b005b356fd15b6796255de29ce05e9e424461331fb961cc78b261d53b0462d0968d649e9e1764ddf230650e2cc3"
         "655bc97c6571f39867259a5d6a4e0f6e6d5ece0a6e1d3a6d72f5169c7421248377ba98c177dce6ba798f55327a3f2cd0"
         "7edb705a840abcba84fe945e851d584a8534fd2285bed0ed85d01a0e886e01e788bfdcbd89b513098abe71df8ac93f04"
         "8c7688488c9f930b92af9c7c92c525fe932e3dfe9403ec6e957672589638accd96b22b29983299db9890a5bb9b7038a0"
         "9bbf544d9c591edf9db139bc9fcb6abe9ff7ce419ffe804aa014a3d2a25e8429a76988b3a7b015b0a9f12551afbe57dc"
         "b1121492b1916b4cb3d1edf6b65cd949b91e3e90b962f6fbb99cbd17ba3a915abb62b9e0bbb53c64bcbcc849be01ff8c"
         "bf75c5ffc19ce83cc1b4cf13c411d999c4411921c5474e22c652fd1cc680f664c70ddab4c74eeaffc89e4a82c8a5802c"
         "c8e2a718c95c249bcabe4df8d05cdb50d0981b46d0b95b98d408ce95d50f16b9d7f891f0dbab54e5dc6f53cddc90222f"
         "deb68f19e037c2fee0a2a734e206b901e266faf8e2ee0944e30de847e53ec5a9e868aa7de88e39bce904fa72f1f151a5"
         "f224fa29f2c48dbdf4343798f4a54e7cf57622f8f632e718f6ed2535f9ab0922fabe241ffaf5c5f4fb2981c0fb964476"
         "fbc8ae40fd7da22dfff4e8a1"},
        {"scg-request-rate-limiter",
         "Spring Cloud Gateway RedisRateLimiter",
         "3.0.x and later, server module",
         "https://github.com/spring-cloud/spring-cloud-gateway/blob/2bcda537b95147a283fd51fbacfa55ec10ad5f22/"
         "spring-cloud-gateway-server/src/main/resources/META-INF/scripts/request_rate_limiter.lua",
         QT_TRANSLATE_NOOP("KnownLimiters",
                           "It takes whole seconds from TIME, so tokens come back in one-second steps instead of "
                           "continuously (a fix is proposed in spring-cloud/spring-cloud-gateway#4084)."),
         "https://github.com/spring-cloud/spring-cloud-gateway/issues/4027",
         nullptr,
         nullptr,
         false,
         {"{key}.tokens {key}.timestamp", "{limit/window_s} {limit} '' 1", "", "", 1000},
         "0ad5736ed1c04aae6ec194376c784b89b8c08a7a",
         "4647ba107ae00a485640b21735fe547f5c772307",
         204,
         "TIME GET GET SETEX SETEX",
         "0214713a03983d5403ef083c0480b2f304ab79f8056e8d1605cad3600693bc59072e4e87075e3e6c07eef3d608187991"
         "093d57290a2195b60a49528d0aacc89b0ca0dad20ce876300d25bb2a1210fd5d1477a3d81484ebf914dd31ea173f0d65"
         "188a32561a02a1ba1a9489cd1b4fff0a1bbc5a221d1b8b2c1e3840981e886cdd1e8c79c320483c5420d4c73c213e15bf"
         "23a816bb23cc035a25ba6e962711a42427ab6f19288b2bc428a15eda29790b292a46773c2abb60892c171fe62d3aa3b3"
         "2e489cf630eadddc33467db33542e87c36e3b98736e9117537133a653a07bfbf3a07cd9c3bd728013d277bac400d9161"
         "42ada5984322ea9745cd76b74688652246ba4b00477500cf47f1b3dc48cab76e4aa86e3b4aebee7d4bf042244f2adfa1"
         "4febe4915149ee43518fd5325219a8b552fe326656d97caa5a856af95b6796255de29ce05e9e42445fc94ff761331fb9"
         "61cc78b261d53b0462d0968d649e9e17655bc97c6571f39867259a5d67ac95446a4e0f6e6b65bc8d6d5ece0a6e1d3a6d"
         "7421248377dce6ba798f55327e42426b7edb705a84fe945e851d584a8534fd2285bed0ed85d01a0e8662fc68886e01e7"
         "88bfdcbd89b513098abe71df8ac93f048c76884892af9c7c92c525fe9403ec6e954641d5957672589638accd9890a5bb"
         "9b7038a09bbf544d9db139bc9fcb6abe9ff7ce419ffe804aa25e8429a5b14d45a76988b3a96c2815aac95310abd08223"
         "b1916b4cb260759bb3d1edf6b5b3e30eb5f103a6b65cd949b86226bbb91e3e90b97ef601b99cbd17ba3a915abb62b9e0"
         "bbb53c64bcbcc849bf75c5ffc19ce83cc1b4cf13c20e01f3c4411921c5474e22c5f75c37c652fd1cc680f664c74eeaff"
         "c89e4a82c8a5802cc95c249bcabe4df8d05cdb50d0b95b98d408ce95d50f16b9d7f891f0d95f1089dbab54e5dbeab7c5"
         "dc6f53cddc90222fdeb68f19e037c2fee0a2a734e2ee0944e30de847e868aa7de88e39bce92f8048f03ba8cdf095ea57"
         "f1f151a5f224fa29f2c48dbdf4982c0ffabe241ffb2981c0fc5d4948fd7da22dffc0b8c5fff4e8a1"},
        {"scg-request-rate-limiter-webflux",
         "Spring Cloud Gateway RedisRateLimiter",
         "server-webflux module",
         "https://github.com/spring-cloud/spring-cloud-gateway/blob/eea8e83dcb5a3ff70025f74bb42c450cc10a3072/"
         "spring-cloud-gateway-server-webflux/src/main/resources/META-INF/scripts/request_rate_limiter.lua",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key}.tokens {key}.timestamp", "{limit/window_s} {limit} '' 1", "", "", 1000},
         "86c69f51986a343841432495d8b97ac7ebdd7cfc",
         "bb997b910809b37789de263e466a33661ade6fc2",
         223,
         "TIME GET GET SETEX SETEX",
         "01bcb5200214713a03983d5403ef083c0480b2f304ab79f8056e8d1605cad3600693bc59072e4e87075e3e6c07eef3d6"
         "08187991093d572909a7732e0a2195b60a49528d0aacc89b0ca0dad20ce876300d25bb2a1210fd5d1477a3d81484ebf9"
         "14dd31ea173f0d65188a32561a02a1ba1a9489cd1b4fff0a1bbc5a221d1b8b2c1e3840981e886cdd1e8c79c320d4c73c"
         "213e15bf23a816bb23cc035a25b8085b25ba6e962711a42427ab6f1928a15eda29790b292a46773c2abb60892c171fe6"
         "2d3aa3b32e489cf630eadddc33467db33542e87c36e3b98736e9117537133a653a07bfbf3a07cd9c3b963f343bd72801"
         "3d277bac400d916142ada5984322ea9745cd76b74688652246ba4b00477500cf47aaf9b547f1b3dc48cab76e4aa86e3b"
         "4f2adfa14febe491503d1e1d5149ee43518fd5325219a8b5527bc8b952fe326656a77bde56d97caa5a856af95b679625"
         "5d5511335de29ce05e9e424460df039661331fb9614ca72161cc78b261d53b0462d0968d649e9e17655bc97c6571f398"
         "67259a5d67ac95446a4e0f6e6b65bc8d6d5ece0a6e1d3a6d7421248377dce6ba787c0d65798f55327e42426b7edb705a"
         "8209251584fe945e851d584a8534fd2285bed0ed85d01a0e86c69fd1886e01e788bfdcbd89b513098abe71df8ac93f04"
         "8c76884892af9c7c92c525fe9403ec6e957672589638accd9890a5bb9b7038a09bbf544d9db139bc9fcb6abe9ff7ce41"
         "9ffe804aa25e8429a5b14d45a76988b3a96c2815aac95310ae55d892b1916b4cb260759bb3067ecab3d1edf6b5b3e30e"
         "b65cd949b86226bbb91e3e90b97ef601b99cbd17ba3a915abb62b9e0bbb53c64bc3412acbcbcc849bef251dcbf75c5ff"
         "c067695ec19ce83cc1b4cf13c20e01f3c3f29882c4411921c5474e22c5f75c37c652fd1cc680f664c74eeaffc7ca021f"
         "c7e3756ec89e4a82c8a5802cc95c249bcabe4df8cb0645dfcd27292dd05cdb50d0b95b98d408ce95d50f16b9d7f891f0"
         "d8cc8ac4d931f586dbab54e5dbeab7c5dc6f53cddc90222fdc9875ccdeb68f19def6a1bde037c2fee0a2a734e2ee0944"
         "e30de847e868aa7de88e39bcf03ba8cdf082ae8af095ea57f1f151a5f224fa29f2c48dbdf4982c0ff99173bcfabe241f"
         "fb2981c0fc5d4948fd7da22dff14458efff4e8a1"},
        {"go-redis-rate-v9",
         "go-redis/redis_rate",
         "v8 and v9",
         "https://github.com/go-redis/redis_rate/blob/1e4c1e22ee3b9e0f71b360c4fb7f11bbccef8151/lua.go",
         QT_TRANSLATE_NOOP("KnownLimiters",
                           "It rounds what is left to the nearest whole request (+ 0.5), so RetryAfter and Remaining "
                           "tell a client to come back early."),
         "https://github.com/go-redis/redis_rate/issues/42",
         "v10",
         nullptr,
         false,
         {"{key}", "{limit} {limit} {window_s} 1", "", "", 0},
         "ac480cba3b54c99acf5ac2b18336f630fd8ea21b",
         "afb98e3a9fbf6479703da5183079d437621cb625",
         244,
         "TIME GET SET",
         "00596ddd0214713a051ab452067173420785cf58083bdf8e0c99b8770fc8aa071092c4471190bff21225700212968a67"
         "1309ced4142197bc1477a3d8185a34ee198c46c51b0e394c1c1de07c1ec7831220b8861d2120001c214bdee7215aebcb"
         "21a876c8222ca7a2234ded772405ffe7260aac49290faa512cb746ce2d3aa3b33281d9073513324336dcc8583876a3e7"
         "38c0e72938ffb8db3af35f4f3b963f343c9ee1ea3d288f643e349a9c3ee3b96f3f115beb403e1b4d406bd10343964e19"
         "4672fd5146a4d7e84721374d4a4251154aa86e3b4b6f62834ca4874b4ea73d8d4ef510a0512c17df555314ad55c139d3"
         "56a77bde573e1b4d58333eb6589262ae5ba6d0695e62d5045f1feed360421d0d60770c4c621d2dd562976f9a636ac0ee"
         "63def190652d512465de78de665aa6bc66e5ea2c66eb9d5967a35f566a981d296bcac5f86ca1ad536d87abad6ec810ea"
         "6f4361ea724a8154735cfc3273d38a8f7488b98c78385516786c1e28787c0d657a8321687c47d7677ca00be57cf5cb2e"
         "7d8f985a7e67699c819355bd81bb7b3782d5187b8459110e84d38e5585bed0ed86cce81b8734d603879ad9cb881000b2"
         "88196d25884f4e8a88868c9b890326328936d86b89e693348a1406b08a7ce79f8aaa8de090575f5890ac1def910667e4"
         "914c9d619290497c93858b8b93bd52c997c180df98673fd2988a666b9902b19f9915ad7f991854da992b5c4c9a9f72b1"
         "9acea2b29c04a3aa9ca2aa1b9da5179b9dcd43dd9dd98f699f412de59fcb6abea0f5525ea18a0034a1a9ccc7a471f827"
         "a514f39da52b4e22a5b14d45a750d215a7ab3b91a7ca1257a830636ca840fb3ea88e7344ab4da3adabcadbcfad686a4a"
         "af2f311fb05d84d1b3000cb2b3d1edf6b45c8ecab5e278b9b6f0e230b73cc06db8813d3db8f748c8b985ed4cbb46fbb6"
         "be49d028beee9e67bfecd502c1aa429fc2191e66c3fa7ce0c4f65a7dc77ed372c7ac562ec7e3756ec89e4a82cccb42c3"
         "cd05277ecd9aa9cbcffd64bfd0b95b98d0dc688cd375770cd5363081d7be38f8da1a9cf8da6d0ea5da73b216da76ca67"
         "db440810dc90222fde3a6f8adfce98e6e1c2c3f1e22b1376e2b366bee2c58771e36a8d7ae47c953ce548fa84e81340e4"
         "e9b36da6ec3c0937ece3072fed11b11ded456d6dedf11583ee05cbf9f0809abef082ae8af0861ce0f095ea57f0b14a9e"
         "f14369daf26d694ef35e368ef43160ccf4341ae5f4692755f4e607c1f753220af8991983fa59b83bfb0d599afc5d4948"
         "fc8e53f7fcf5be5d"},
        {"go-redis-rate-v10",
         "go-redis/redis_rate",
         "v10",
         "https://github.com/go-redis/redis_rate/blob/7d093de998851a1b3b7884d2a7322ed9348856ba/lua.go",
         QT_TRANSLATE_NOOP(
             "KnownLimiters",
             "A user of v10.0.1 reports this script stopping at its SET ... EX math.ceil(reset_after) with \"ERR value "
             "is not an integer or out of range\"; the report does not settle the cause."),
         "https://github.com/go-redis/redis_rate/issues/110",
         nullptr,
         nullptr,
         false,
         {"{key}", "{limit} {limit} {window_s} 1", "", "", 0},
         "f52a5b566060d79fd321d695df55bc918339c4aa",
         "b0bb73fee98e2213b0bc3d1660acc92168efc4de",
         241,
         "TIME GET SET",
         "00596ddd0214713a051ab452056e8d160785cf58083bdf8e0c76ddd50c99b8771092c4471190bff21225700212968a67"
         "1309ced4142197bc1477a3d8166d10f6185a34ee198c46c51a78c0aa1b0e394c1c1de07c20b8861d2120001c215aebcb"
         "21a876c8222ca7a2234ded772405ffe7260aac49290faa512cb746ce2d3aa3b33281d9073513324336dcc858370f4566"
         "3876a3e738ffb8db3af35f4f3b963f343c9ee1ea3d288f643d54203c3e349a9c3ee3b96f3f115beb406bd10343964e19"
         "4656691a4672fd5146a4d7e84977e2b94a4251154aa86e3b4b6f62834ca4874b4ea73d8d4ef510a050b0597b512c17df"
         "56a77bde56f2e7f9573e1b4d57d5f6fe58333eb6589262ae5a20374d5ba6d0695e62d5045f1feed360421d0d60770c4c"
         "621d2dd5636ac0ee63def190652d5124658509c365de78de665aa6bc66e5ea2c66eb9d5967a35f566a663eac6a981d29"
         "6ca1ad536d87abad6ec810ea6f4361ea711ee2bd724a8154735cfc3273c6ccd473d38a8f77dce6ba78385516786c1e28"
         "787c0d657a8321687c47d7677ca00be57cf5cb2e7d8f985a7e67699c819355bd81bb7b3783f517168459110e84d38e55"
         "84fe945e85bed0ed8734d603879ad9cb881000b288196d25884f4e8a88868c9b88c60a57890326328936d86b89e69334"
         "8aaa8de090ac1def910667e4914c9d619290497c93bd52c998673fd2988a666b9902b19f991854da992b5c4c9acea2b2"
         "9ca2aa1b9d5dca3c9da5179b9dd98f699fcb6abea0f5525ea18a0034a1a9ccc7a1bb2aada471f827a52b4e22a5b14d45"
         "a750d215a7ab3b91a7ca1257a830636ca840fb3ea88e7344a9b50fb6ad686a4aaf2f311fb3000cb2b3d1edf6b45c8eca"
         "b51c9f96b5e278b9b6f0e230b73cc06db8813d3db8f748c8b92ef8b1b985ed4cbe49d028beee9e67bf3bdd9bbfecd502"
         "c2191e66c4f65a7dc5691936c5cc21b4c77ed372c7ac562ec7e3756ec89e4a82cb419220cb8c6263cccb42c3cd05277e"
         "cd9aa9cbd0b95b98d0dc688cd375770cd5363081d6b892aed7be38f8d88a70c3da1a9cf8da6d0ea5da76ca67db440810"
         "dce1b055de3a6f8adfce98e6e136e9fee22b1376e2b366bee2c58771e36a8d7ae47c953ce548fa84e81340e4e8f22672"
         "e9b36da6ec3c0937ece3072fed11b11ded456d6dee05cbf9f0809abef082ae8af0861ce0f095ea57f0b14a9ef14369da"
         "f207ed80f26d694ef35e368ef3e14dabf43160ccf4341ae5f4692755f4e607c1f753220af8991983fa59b83bfb0d599a"
         "fc5d4948fcf5be5d"},
        {"go-zero-periodlimit-early",
         "go-zero PeriodLimit",
         "tal-tech/go-zero, before February 2022",
         "https://github.com/zeromicro/go-zero/blob/0a7e0cce77f8673116c8199d272d595cea5e39eb/core/limit/periodlimit.go",
         QT_TRANSLATE_NOOP("KnownLimiters",
                           "With a quota of 1 it answers Allowed where it should answer HitQuota, so the caller never "
                           "learns the quota is used up."),
         "https://github.com/zeromicro/go-zero/pull/1581",
         nullptr,
         "https://github.com/zeromicro/go-zero/pull/1581",
         false,
         {"{key}", "{limit} {window_s}", "", "", 0},
         "30caff0cf2b42d8d2895ce3d18d791f98042c8f5",
         "2872af110ad8cceac5b7a3f977744a088af06c60",
         74,
         "INCRBY EXPIRE",
         "044109e404986d9205cad3600ca0dad20fe0e5291350fd3d139e8a341da51d1b1daebe192715d06c28a15eda2a82b8e3"
         "2cbeac6334d5ba63354aeff937231b1945cd76b7473cfd384c02ab865149ee4353c353665a103d355fd95bca5fdf7dcd"
         "65d4a0b9669dcc8469d72763742124837423fb9f74b273da74f5872f772ae6dc81247d488379200084fe945e851d584a"
         "85f2b61a88cd82dd8985ea318cf211d594673e2094dbec539e11b203a262839ea2adabe2a32abeb4a3f19b5aa4f1f067"
         "ae8c3501b165fb95b6bb4a02bbff997ebcbcc849bdb564a7c054519dc89e4a82caa96ed5ce522a6ed5d4152ad8d255f0"
         "db4bf680e39fd2f4e4e393bcee281bdff082ae8af6429725f730fd6a"},
        {"go-zero-periodlimit",
         "go-zero PeriodLimit",
         "periodscript.lua",
         "https://github.com/zeromicro/go-zero/blob/950de56215a8244211bab074b234ff24d9c77b97/core/limit/"
         "periodscript.lua",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key}", "{limit} {window_s}", "", "", 0},
         "a9e60ae5eb5b2afd1924613fe21400b92d3f8f07",
         "96a68260b3bfbb7b9838ffcf6e29102e4a87c73d",
         73,
         "INCRBY EXPIRE",
         "04986d9205cad3600ca0dad20fe0e5291350fd3d139e8a341da51d1b1daebe1928a15eda2a82b8e32cbeac6334d5ba63"
         "354aeff94007cecf4535c1b645cd76b7473cfd384c02ab865149ee4353c353665636010a5a103d355f9fe28e5fd95bca"
         "5fdf7dcd65d4a0b9669dcc8469d72763742124837423fb9f74b273da74f5872f772ae6dc81247d488379200084fe945e"
         "851d584a85f2b61a8870639388cd82dd8985ea318cf211d594673e20a2adabe2a3f19b5aa4f1f067ae8c3501b165fb95"
         "b6bb4a02bbff997ebcbcc849bdb564a7c054519dc89e4a82caa96ed5ce522a6ed5d4152ad8d255f0db4bf680e39fd2f4"
         "e4e393bcee281bdff082ae8af6429725f6f1b5d4f730fd6a"},
        {"go-zero-tokenlimit",
         "go-zero TokenLimiter",
         "tokenscript.lua",
         "https://github.com/zeromicro/go-zero/blob/9fe4e3b8b0e310bf460911442359ae2feac811d8/core/limit/"
         "tokenscript.lua",
         QT_TRANSLATE_NOOP("KnownLimiters",
                           "It stores the caller's now as the last refill without checking that it is newer: a delayed "
                           "call moves the time back and the next call refills the bucket again (9 grants in one "
                           "second at a rate of 5 in the report)."),
         "https://github.com/zeromicro/go-zero/issues/4072",
         nullptr,
         nullptr,
         true,
         {"{key}.tokens {key}.ts", "{limit/window_s} {limit} {now_s} 1", "", "", 1000},
         "b7bb2fcc82b9c8fc49850e9223e78667a5387dbc",
         "d49844052950857be49a0b41bc2d8f20d47f8260",
         190,
         "GET GET SETEX SETEX",
         "03983d5403a91bf50480b2f305cad3600693bc59072e4e8707ca93fe07eef3d60a2195b60a49528d0c03c22a0c9c19f9"
         "0ca0dad20d25bb2a0ee72fd81477a3d81484ebf9173f0d65178707f4179bf8dc188a32561a9489cd1bbc5a221c678186"
         "1e384098201acb3c2093494320d4c73c23a816bb25ba6e9628a15eda29790b292abb60892d3aa3b32e489cf62f71673a"
         "30a2fd81315fe02432b2d4ce33467db333b25cfa340ed2403478737634fb3d823542e87c35bfc73b35e38cda35f5b521"
         "36e3b98736e9117537133a653a07bfbf3a07cd9c3bd728013c4e2cdd3d85cc73426b7ece42ada59845499bff45cd76b7"
         "45ed1b58477500cf47f1b3dc48cab76e49b1b0ec4aa86e3b4b917d1f5000960e5149ee43518fd53252fe32665315ce18"
         "53e381fc587f4b005b356fd15b6796255e9e42445fdf7dcd61d53b0462d0968d64ddf230655bc97c6571f39867259a5d"
         "6a4e0f6e74212483746c0c4375468e40798f55327a3f2cd07da9f9a87f9d7489840abcba851d584a8534fd2285bed0ed"
         "85d01a0e886e01e788bfdcbd89b513098abe71df8ac93f048c7688488d5260bd8e9ea18892af9c7c92c525fe936c144a"
         "9403ec6e957672589638accd9890a5bb9b7038a09bbf544d9e8e76559ff7ce419ffe804aa014a3d2a76988b3a7b015b0"
         "ae8c3501af69e1f5b1121492b1916b4cb65cd949b86cb63bb88280c0b95aaed5b99cbd17bbb53c64bcbcc849be01ff8c"
         "c0f096f4c1b4cf13c4411921c645072ac652fd1cc89e4a82c8a5802cc8e2a718cabe4df8d05cdb50d0b95b98d44c1055"
         "dbab54e5dc90222fdeb68f19dfeb8040e037c2fee0a2a734e266faf8e2ee0944e30de847e53ec5a9e868aa7de88e39bc"
         "e8ea6868e904fa72f1f151a5f224fa29f2c48dbdf4343798f57622f8f59cc759f60fee66f8852417fabe241ffb2981c0"
         "fd7da22dfff4e8a1"},
        {"upstash-sliding-window-0.x",
         "Upstash Ratelimit sliding window",
         "0.x, before July 2023",
         "https://github.com/upstash/ratelimit-js/blob/4f869ab36013d9e43ed523d141bb6b9bca2d36ab/src/single.ts",
         QT_TRANSLATE_NOOP("KnownLimiters",
                           "It names the previous window's key wrongly, so it never finds the previous window's count "
                           "and limits like a fixed window: up to twice the limit passes around a window's end."),
         "https://github.com/upstash/ratelimit-js/pull/61",
         nullptr,
         "https://github.com/upstash/ratelimit-js/pull/61",
         true,
         {"{key}:{now/window} {key}:{now/window-window}", "{limit} {now} {window}", "", "", 0},
         "b6156871abd5c5219fdfd1508be6d986863eae46",
         "e864851f5a61f581186988232254ac266f40c06e",
         139,
         "GET GET INCR PEXPIRE",
         "00303e8e00f43bcd017134f30201aee90522ec4405cad360091feaaf0d5ed17f0df5668911d01ded11f4693b1210fd5d"
         "1350fd3d1795c047187945cc1a6c73801bfeec341c6890001cef58ec1e384098202efabf20b8861d213e15bf21f012a1"
         "2228e2b32327c53623b6e15926edf7a62b4e16b02cd240fa2e7714e33074c23330af61cf3393d5dc34cac171374c59bd"
         "3b2e28853d19af263ec2ce8d4758c495498d3c4949cf54f34a0c3f905097fb6950a9c6905149ee4353bb03dc542f471f"
         "54f4616356062763583364085e62d5045fc0dfc05fcd058d6900f2956b2c09296cebfda76d26b6776d7222596e33a365"
         "6fa5d9ac6fe3e2b9733f57a974212483765eecc27850c6a47d7b2c0e7d8f985a7e94ee16802b4ffd824979be84fe945e"
         "851d584a858848da8718dd2488ca182a8975641c8f4ef03c9a17ba479f5d998c9fcb6abea8b7059ba8c0ea21ab944c89"
         "abc809bdae42ed7db090ba23b3d1edf6b4652510b47df771b4ea09e2b62e35f3b66c4e3bbb6745b1bdb564a7c1439952"
         "c291965ac88356dfc89e4a82ca38ae33cab6c155cc67f30bd009a8d2d469c155d4b66bf8da76ca67dba1f646dd66ad44"
         "de54e26ddec47b20e2aec3e7e3007d3ce3e493fce4f20f89e550cb26e58fa171e81d0531e8e88fdfe924aeb6e9c344b8"
         "ea1d7e27ea873936efa4e787f082ae8af4e607c1f6f46929f753220af7e2d8aef96f4dacfb1a8c02fc80bbbd"},
        {"upstash-sliding-window",
         "Upstash Ratelimit sliding window",
         "2.x, dynamic limits",
         "https://github.com/upstash/ratelimit-js/blob/11b8f9a962c34e9a3463dd00513e45e031c8d27e/src/lua-scripts/"
         "single.ts",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key}:{now/window} {key}:{now/window-1} {key}:dynamic", "{limit} {now} {window} 1", "", "", 0},
         "977fb636fb5ceb7e98a96d1b3a1272ba018efdae",
         "ecc3b95e44fcff886e91d8638f329236dee5d54e",
         214,
         "GET GET GET INCRBY PEXPIRE",
         "00303e8e0072fd7600f43bcd0201aee90522ec4405b08d5205cad360091feaaf0d2013930d5ed17f0ddee2ae0df56689"
         "0e4f39360f86f48111593a0411d01ded11f4693b1210fd5d1477a3d814ad256c1795c0471a6c73801bfeec341c39ea7b"
         "1c6890001cf9044d1e3840981e416ea820b8861d213e15bf21f012a12228e2b3223d554923ba2f3225ae9c5f26edf7a6"
         "276f4a4028e48f912a82b8e32cd240fa2d9700432e498fec2e7714e33022cba43074c23330af61cf3393d5dc3481963e"
         "3b2e28853b8e23ad3d19af263ec2ce8d40f1258c4758c49548fde21a498d3c494994b09549cf54f34a0c3f904aa86e3b"
         "4baefb274e015fe1510770d05149ee4353bb03dc542f471f54f46163560627635785a4dc583364085e62d5045fb23392"
         "5fc0dfc062bc0b2b66fe66936ad750f96b2c09296cebfda76d7222596d7b04346e7318d56fa5d9ac6fe3e2b9733f57a9"
         "742124837577eb12765eecc277c2f19a79affa7779ceca187bd41d737caf56e47d7b2c0e7d8f985a7e94ee167fc1c09e"
         "8079dd2980aedb97824979be82daadff8379200084fe945e851d584a858848da85bed0ed8718dd248975641c89e94d0a"
         "8b53a649903a4ae19163c1a49209f4ae921d61469685319d9a1846cf9c8684889ce378f69fcb6abea2beae32a44cb3a7"
         "a47ef5a4a8b7059ba8c0ea21aae20e03aae73071ab74183dab944c89abc809bdae42ed7daf04e5c0af056024b38d948b"
         "b3d1edf6b42f64e2b4f4387db62e35f3b66c4e3bb74ee9deb754603ab79fadc8b8647d20ba30dc0cbb17e8abbb6745b1"
         "bcd9f935bf98daadbff43c61c1439952c174958bc291965ac2d2361ec3ef51fec52067e8c57a2d2fc748bd80c89e4a82"
         "ca38ae33cab6c155cbc945c2cc67f30bd009a8d2d0b95b98d13d0eccd1468abed16f9985d35ee4aed469c155d4b66bf8"
         "d566a593d726bdb9d7e97c30d8611283d973910cda76ca67dba1f646dc90222fdd66ad44de54e26ddec47b20df31ed58"
         "dfe129eee2000e28e3e493fce58fa171e6d17693e774f68ce81d0531e924aeb6eb1993adef0cfdd2efa4e787f082ae8a"
         "f2116badf4e607c1f6f46929f753220af7aca98cf96f4dacfa6d3f10fc80bbbdfe2ffd00ff13e695"},
        {"upstash-token-bucket",
         "Upstash Ratelimit token bucket",
         "2.x, dynamic limits",
         "https://github.com/upstash/ratelimit-js/blob/11b8f9a962c34e9a3463dd00513e45e031c8d27e/src/lua-scripts/"
         "single.ts",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key} {key}:dynamic", "{limit} {window} {limit} {now} 1", "", "", 0},
         "b35c5bc0b7fdae7dd0573d4529911cabaf9d1d89",
         "222247195e17cea25c3f81ed9004890c2964fef0",
         282,
         "GET HMGET HSET PEXPIRE",
         "016ad9ba05cad360065b83be069760930908092c09f967390b55c4690ca0dad20e4f39360eeae3390ff23f8c1104cd79"
         "11593a041168f55f1210fd5d131aabf013bf9bc01477a3d81484ebf914de7acd14ec5e4f169cb20916caaca817dc95fb"
         "18f9a8cd195aff37199f32641a2ad05f1cada6421dc9327c1e3840982024304f206f807f20771f9020b8861d213e15bf"
         "2208b8f222149f3e233cb48825d49ca228a15eda28ca934b28fcd24a29ce97a62abb60892d1f5cb52d4246dd2d970043"
         "2dd188872e855a112f67709e3020d64a3022cba43481963e353a5b35384a743b397ea41e39e77bb23a3a6b4c3afd0815"
         "3d3cbcd53db843123e54553b3f6518b940f1258c40fbbafc42c8e60143a0518d45cd76b7487cc37348fde21a4994b095"
         "4aa1c0714aa86e3b4b333b7d4b97d7f84baefb274eff5a764fbe206450bb0f285149ee4351c48ebb51e0a8b354719a33"
         "56aaa33556ce358b5785a4dc59726fd259a1d5bb5b356fd15b3fe1915b430eff5e62d5045e8e7af85ecc92ba5fb23392"
         "6097c9e4643202d666cae1ab66fe66936b7b5ea36d7222596e2474c36f9c72be702c8f93742124837425e05e76f5e8e7"
         "774bdde2781787837896ff9179ceca187b5362a67b962f727c9096d07d7b2c0e7fb0056c8306970f8466d58984e33eec"
         "84f8907a84fe945e851d584a85be9dbb85bed0ed85c10f8485c9c44885d01a0e8727a98e8997053689b513098a520ab3"
         "8b1c0e4c8b53a6498eb5c57a8fe8e34190f57a7791abd22491c3f3bb91e8f79d927ac42892af9c7c944a7fa499a6abdc"
         "99cadfff9adab3b59af8fa7f9c8684889ed0e3269fcb6abe9ff7ce41a12293f0a284295fa4687346a4a07352a532ca81"
         "a94940b5a965018ba988027eaa29c81daa4c5863aae20e03aae73071ab291c27aee266faaef2cfaaaf9f003cafa13d90"
         "afd2385fb085d170b230b2acb2430308b3d1edf6b74bf988b754603ab7c008c2b7c37e44b85ce971b8999cdbba30dc0c"
         "bc55c49ebcbcc849bd4f3accbd53e699bd75cafabf98daadbff43c61c2b00bb7c2d2361ec4928d7dc4c15d4fc4d1681d"
         "c52067e8c520d89cc5ac4cbfc70bdca7c83ad7fdc84e0c1ec89e4a82c947b3cbca578987ca60d639cbe1ffb7cbe6777a"
         "cc9d0b03ced5fbeccf33e14ccf47432dcffe5913d00784dcd0b95b98d0d1907dd0d4919ed0d8eb63d213c3fbd230d80e"
         "d2eed02cd2fe3d99d334ab54d35ee4aed36878aed566a593d5943c40d5d8d0a4d6759ec6d7fb60f8d804f109d94ef798"
         "d973910cdc4e53f2dc90222fdd0e10d1dd3d3834dfe129eee1136dfbe224eea5e56d81dae5a1a31fe65583c1e6d17693"
         "e6fb9983e7979373e7ff23c1e88e39bce95304f4eb1993adecb2c606ed73f097ed7a7f3cedcd2786edffa93eee7efa09"
         "f082ae8af09ded45f2a50243f3ab55dbf3c6c39cf6da5159f8345bc1f893377ef8e6502cfaac77fffab73d13fbd40690"
         "fe2ffd00fed479f3ff73d726fff19a2c"},
        {"tyk-sliding-log",
         "Tyk sliding log",
         "internal/rate, Lua form",
         "https://github.com/TykTechnologies/tyk/blob/68cd697d698128f6100b07b9e3d86e9beae63a3e/internal/rate/scripts/"
         "sliding_log_add.lua",
         QT_TRANSLATE_NOOP("KnownLimiters",
                           "Refused requests are logged too, so a client that keeps sending above the limit is refused "
                           "for good; Tyk keeps this by design."),
         "https://github.com/TykTechnologies/tyk/issues/1876",
         nullptr,
         nullptr,
         false,
         {"{key}", "{now_ns} {now_ns-window_ns} {limit} {window_s}", "", "", 0},
         "6fe22a051d3add60fda7a6b168078a32603c49d0",
         "4a3841cc625b5db6a6f6d062f464185e03045b7b",
         151,
         "ZREMRANGEBYSCORE ZCARD ZADD EXPIRE ZRANGE",
         "00f7f8f90659421706ecc7a608c21b230dc836410de4ef2d0e65b1e70fdc3ffb0fdccf3a11e5d66c121a21a11477a3d8"
         "188a32561ad3f0731ca3f5981cb2a3f41ce7c3341ec5d4f92155c5c628b559862aa89e122abc36772b81fb942bc39b00"
         "2cebf9762d9a49e33007f46331b1391d32e639c434a40f7b357eede335de705837558f903876ccec3cd652103daf0dd7"
         "3fa6b01742a799ac4344bcf544948baf46bb931b4782662a4aa86e3b4aea66754d760f0a51429bf65613986257859329"
         "57e207b9583a65735b356fd15b3800bd5f1e2bbd604b31de61a36159623e13f4652d512465eb5b826863aad36b12d90a"
         "6b8a237571183dd1721f3185745a41b9767d0c8d786fc0707b1992ea7e082e71825aa58d83104ded855b355985bed0ed"
         "85d01a0e86954760884c4e1e892595fb896e0b838cf361008eb29b69910667e491a5ed1491caa33292af9c7c92f711f0"
         "93abd49d94a4859596ac478e98998c739922acc799ce21859c215d8a9dfae8709e9e03b49efe9df19fcb6abe9ff7ce41"
         "a0dfebada1459b0aa1f22910a29ecef9a2d61365a2dc1225a4687346a4b6656da9b50fb6acfeeb9bb069fb1cb2427134"
         "b3d1edf6b491cb2db77f3f06b7b1a0c0b8a7b9a6bb7908c7bc227d18bda7eca5c0c48e64c1b5a5b7c5396d85c89e4a82"
         "c8e95e1fcafa7e5bcd7dc5e0d0f382a8d5ae620bd5c70988da76ca67dd2398abdd5d764fe03d2a26e11bf40ae62f2b62"
         "e79d5ec1e7af86e0e81b2fc9ea43f4eeeb218574eff92d6ef082ae8af4e607c1fcc9987cfe49fb1dff73d726"},
        {"rate-limiter-flexible",
         "rate-limiter-flexible RateLimiterRedis",
         "since late 2020",
         "https://github.com/animir/node-rate-limiter-flexible/blob/d4e26c0748e9213b5646694f8a3d46db8ba56824/lib/"
         "RateLimiterRedis.js",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key}", "1 {window_s} {limit} {window_s}", "", "", 0},
         "a1de965f42e177aa339706bd580f049065eca79a",
         "23927e0c1687994495c1930094196c154b2b7127",
         92,
         "SET INCRBY PTTL EXPIRE",
         "019116f401bc62fd111c260a160de5391daebe191f125c551fd6b873203524932067c16922d9ae102c5fbd042cbeac63"
         "2dabe0b435ac74c7360fbb193cb543043ee641a6406364a344bf244f455c7c4f463c56c049bc4f894c02ab865149ee43"
         "51f73c2d538bb22a55371e3655b6035f5876ea2a5fdf7dcd64dd307767bd013768c3c02d697a9ec378c211e57f6d7d79"
         "83a1fb3d843349a684fe945e851d584a85f2b61a88becb758a9894758e7f10f590b6ccfe93b4589c98c674959c64206f"
         "9ff85279a2ed4124a76a7342a9f58bd9ae8c3501b19bda5fb1b9b705b75ccc95b893fee2b9aac68ab9d1bfe0bcbcc849"
         "bdb564a7c167f6c8c7b2ceaec9d3594aca7e7e88cc60a286d0136c84db4bf680dfeb8040e1c58ab2e471269ee6e82700"
         "f02606cef0498331f082ae8af76a0c79f913a616f9d46337fdb90d7d"},
        {"rate-limit-redis-4.2.0",
         "rate-limit-redis",
         "3.0.0 to 4.2.0",
         "https://github.com/express-rate-limit/rate-limit-redis/blob/000446d980e41ab107d2196c12202aeda20036cd/src/"
         "lib.ts",
         QT_TRANSLATE_NOOP("KnownLimiters",
                           "PTTL can answer 0 for a key about to expire; the script then sets a new expiry while the "
                           "old count carries on, so a window can last two or three times too long."),
         "https://github.com/express-rate-limit/rate-limit-redis/pull/209",
         "4.2.1",
         nullptr,
         true,
         {"{key}", "0 {window}", "", "", 0},
         "3f424a504987d231baa2e19159bb5def8ad32f87",
         "7a7810787f2a2f8c48d04dc357bc2bde36229360",
         75,
         "INCR PTTL PEXPIRE",
         "02e4d7d708af4ef60927bd16095cbcbc0a846e2313ba19e6160de53917420cd017f41c86199d67f41d93975f22e8248f"
         "28a15eda2fab479535e6b90f3706db4c3dc25df1446fbc1d45cd76b74637718c5149ee4351876cca5446dc635b2bd17a"
         "5c97bfa55dc759815fdf7dcd641c34476496285d659ccc8565dd035765e603946d7222597850c6a478d1bf4b7b17186a"
         "7d7b2c0e802b4ffd81ca7c4784dd46a684fe945e8ac3dac995478bfa9dabdd5ba12293f0a9b53d5ba9c74f59ae8c3501"
         "b64bc541b7e98075bb277949bcbcc849c064685dc0f096f4c25e83edc89e4a82cce939b0d14372eed224f105dd1fb04a"
         "dfeb8040e505c27df082ae8af360e6e6"},
        {"rate-limit-redis-4.2.1",
         "rate-limit-redis",
         "4.2.1 and 4.2.2",
         "https://github.com/express-rate-limit/rate-limit-redis/blob/04b1eeea94b7b8005dcfe8b19977d099a0cf46bd/source/"
         "scripts.ts",
         QT_TRANSLATE_NOOP("KnownLimiters",
                           "It still counts with INCR before it reads PTTL, so a key at the moment it expires can keep "
                           "its count instead of starting a new window."),
         "https://github.com/express-rate-limit/rate-limit-redis/pull/218",
         nullptr,
         "https://github.com/express-rate-limit/rate-limit-redis/pull/218",
         true,
         {"{key}", "0 {window}", "", "", 0},
         "b829ec02dca78a148dfc75dd3c86f488ed007c68",
         "edcd4ccdd7574388468dafe41709967ac90b5fd3",
         75,
         "INCR PTTL PEXPIRE",
         "02e4d7d708af4ef60927bd16095cbcbc0a846e2313ba19e6160de53917420cd017f41c86199d67f41c4dd1281d93975f"
         "22e8248f28a15eda2fab479535e6b90f3706db4c37b0f07f3dc25df1446fbc1d45cd76b75149ee4351876cca5446dc63"
         "5b2bd17a5dc759815fdf7dcd6496285d659ccc8565dd035765e603946d7222597850c6a478d1bf4b7b17186a7d7b2c0e"
         "802b4ffd81ca7c4784dd46a684fe945e8ac3dac995478bfa9dabdd5ba12293f0a9b53d5ba9c74f59ae8c3501b499a3f2"
         "b64bc541b7e98075bcbcc849c064685dc0f096f4c25e83edc4b9d055c89e4a82c8cae364cce939b0d14372eed224f105"
         "dfeb8040e505c27df082ae8af360e6e6"},
        {"async-ratelimiter",
         "async-ratelimiter",
         "the Lua versions, from 2024",
         "https://github.com/microlinkhq/async-ratelimiter/blob/e28c9fc72ae232fb253b10053c476ffb7f6bb0cd/src/index.js",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key}", "{now} {window} {limit}", "", "", 0},
         "8c6d42314e7d644e58187530c4596bd49e1fbabc 51d8e63a380bf7a715e9cc96b2fa6ad9e2e8788b",
         "d45b679460cf1d623b8cb28e008bc30b3c5d23fc",
         263,
         "EXISTS ZREMRANGEBYSCORE ZCARD ZRANGE ZADD ZRANGE ZREMRANGEBYRANK PEXPIRE",
         "015b852e0324c916047afb1d0585331c05b8267505cad36006ecc7a608c744cb0977876b0993a6f309f967390baf8823"
         "0ca0dad20ed11c7d11a818251350fd3d1484ebf914ebff1d1587f9ea161de3071861c7e61879a977191e39151abf3755"
         "1ad095e81b790ca71b9fbf8a1cb2a3f41df7ac021e2602531ed23abf1f5baeb41f9cb44b1fa9fb61215f677125524c91"
         "278a2ff02865d62328a15eda2a1932482a33a5382bf11f6d2c05f09b2cfbbb742d689f782e06d9532e493d742ec66998"
         "2efce6a730e05e513215d74e32df6df83340aeaf335d18493513178735de70583663497b37d87d753894f1f4390dd9d5"
         "3bb6dfde3cf2852d3d69f9203dd088a93ebd78203efe0ec940b59a9542c5f94245c23e4645cd76b7460198b947c6e55d"
         "480eaf2048c347554aea66754b5a8c0a4b96c5584c55cdb44cd1b6d64d24cd1a4d760f0a5149ee4353bb38ce58b9f6d5"
         "59fa00885b356fd15b9dce315d7e728c5e2346635f91748e5fdb50a7603e976b62240c2f652003e46544d4f46719e4bd"
         "67c4f3c96a9b75386adef5046d7222596ed91bc371183dd171684b8171fe76a2729b901f737669a77421248374c2694b"
         "76a86b7b7be99c697cb5c8c07d7b2c0e7e082e717fa036eb8018ed1180bc0deb80cff604822ff4bd823064fd829dfb62"
         "82da536484fe945e851d584a85c7951885d01a0e8695476086ab6113870f06fb8851fa64896e0b838a448b198bccbe93"
         "8e4068828e863fb08fa71b76915864be91c9683491caa33291ce0bcd928a3ba492af9c7c94141c719922acc799cadfff"
         "99ef9d169a45ce909a5ab32b9b8cc8cc9fcb6abe9ff7ce41a0dfebada1356a0ba1fc3082a24ad701a4687346a47e63f2"
         "a4da72b0a5b7d406a6694b31a6d52a5ba9010b11a95026c4aa69c31dab35bd0dacce508daef32aeaaf07dd9cb046ff03"
         "b069fb1cb08bbe8cb0d4721bb1d55cf4b2f74072b3d1edf6b491cb2db947205fb96c34d3b9e2b472bb8060f1bcbcc849"
         "bda7eca5bdb564a7be0d7e7ebf2cc281c2fb563cc39387b5c5860ac5c645072ac717c999c78edf12c89e4a82c8e95e1f"
         "c9ba9f33c9d39036ca259a80cae23be9cd8c5379ce02b2a4cee4883dd0a28fa6d0cdc4efd5c029b3d7e38d16d85d0434"
         "d8d0f110d9f02460dab46d37dc26d5f9dd0e9195dd5d764fde2ad69dde4f0f60df048dc1df2eb20be187891ee3ebaee0"
         "e5235843e88e39bce8d719bdea9be47beae58c06eb218574ed10b007ed3dc66cedb8ed5ff082ae8af1863e2af346febc"
         "f3958b67f3b2e1bdf63053b7f72adf70f90f83cbfb14074afda2d77cff73d726"},
        {"async-ratelimiter-peek",
         "async-ratelimiter",
         "with peek, 2025",
         "https://github.com/microlinkhq/async-ratelimiter/blob/362a65a80fcff5f15440f794a61de01feacb93c7/src/index.js",
         nullptr,
         nullptr,
         nullptr,
         nullptr,
         false,
         {"{key}", "{now} {window} {limit} 0", "", "", 0},
         "ad00ff6f099013f2aea94ed48c220cbf616c6a07",
         "d3dee5436f094f3243ad1e60bf923f233a28f83f",
         285,
         "EXISTS ZREMRANGEBYSCORE ZCARD ZRANGE ZADD ZRANGE ZREMRANGEBYRANK PEXPIRE",
         "015b852e0324c916047afb1d05b8267505cad36006db357106ecc7a608c744cb0977876b0993a6f309f967390baf8823"
         "0ca0dad20d70575d0ed11c7d11a818251350fd3d1484ebf914ebff1d158361771587f9ea161de30716caaca81861c7e6"
         "1879a977191e39151abf37551ad095e81b790ca71cb2a3f41df7ac021e2602531ed23abf1f15a94a1fa9fb6120d03937"
         "215f677123489a5f25524c91278a2ff02865d62328a15eda2a1932482a33a5382bf11f6d2c05f09b2cfbbb742d689f78"
         "2e06d9532e493d742ec669982efce6a72f27fe9a30e05e513215d74e32df6df83340aeaf335d184934fe8a5835de7058"
         "3663497b3894f1f4390dd9d53bb6dfde3bca76dc3cc161d43cf2852d3d69f9203dd088a93ebd78203efe0ec93fb80fd5"
         "40b59a9542c5f9424594bdae45c23e4645cd76b7460198b94780d93047c6e55d480eaf2048c347554aea66754b5a8c0a"
         "4b96c5584c55cdb44cd1b6d64d24cd1a4d760f0a5149ee4353bb38ce5746173a58b9f6d559fa00885b356fd15b9dce31"
         "5d7e728c5e2346635f91748e5fdb50a7603e976b62240c2f64438464652003e46719e4bd6a9b75386adef5046cf50b96"
         "6d7222596fe2a7a371183dd171684b8171fe76a2729b901f737669a77421248374c2694b76a86b7b7896ff9179b26827"
         "7be99c697cb5c8c07d7b2c0e7e082e717f6236327fa036eb8018ed1180bc0deb80cff604822ff4bd823064fd82da5364"
         "84fe945e851d584a85c7951885d01a0e8695476086ab6113870f06fb8851fa64886d05df896e0b838a448b198bccbe93"
         "8e4068828e863fb08fa71b76915864be916d796591c9683491caa33291ce0bcd92af9c7c947513f995832b9f96cb09c3"
         "9922acc799cadfff99ef9d169a45ce909a5ab32b9aed6df69b8cc8cc9fcb6abe9ff7ce41a0dfebada200a63aa24ad701"
         "a4687346a47e63f2a4da72b0a5b7d406a6694b31a6d52a5ba9010b11a95026c4aa69c31dab35bd0dacce508daef32aea"
         "af07dd9cb046ff03b069fb1cb07adfe0b08bbe8cb0d4721bb1d55cf4b3d1edf6b491cb2db5525c63b947205fb96c34d3"
         "b9e2b472bb8060f1bcbcc849bda7eca5bdb564a7be0d7e7ebf2cc281c2123f8bc2fb563cc39387b5c5860ac5c645072a"
         "c717c999c78edf12c89e4a82c8e95e1fc9ba9f33ca259a80cae23be9cd8c5379ce02b2a4cee4883dd0a28fa6d0cdc4ef"
         "d5c029b3d7e38d16d9f02460da9f8368dab46d37db8a79e1dc26d5f9dcf2ac90dd042a29dd0e9195dd5d764fde2ad69d"
         "de4f0f60df048dc1df2eb20be187891ee1d31c35e3ebaee0e5235843e88e39bce8d719bde9a7cc8cea9be47beae58c06"
         "eb218574ed10b007ed3dc66cf082ae8af17e79e6f1863e2af3958b67f3b2e1bdf63053b7f72adf70f90f83cbfb14074a"
         "fda2d77cff73d726"},
    };
    return known;
}

} // namespace KnownLimiters
