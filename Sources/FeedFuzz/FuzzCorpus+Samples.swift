/// Small valid inputs, one or more per format, carried in the binary so `feedsim fuzz` works from
/// any directory. Each is written by hand in the shape of the real files (an evemu capture of an
/// Atmel maXTouch screen and of a Synaptics touchpad, a Chrome trace with wheel events and
/// gesture steps, the AOSP and Flutter velocity-tracker CSVs, an rrweb session, Wikimedia feed
/// responses); every one is accepted by its reader (a test checks this).
extension FuzzCorpus {
    static let builtInSamples: [FuzzFormat: [(name: String, text: String)]] = [
        .evemu: [
            ("touchscreen.events", """
            # EVEMU 1.3
            N: Atmel maXTouch Touchscreen
            I: 0018 0000 0000 0000
            P: 02 00 00 00 00 00 00 00
            A: 00 0 799 0 0 0
            A: 01 0 479 0 0 0
            A: 2f 0 9 0 0 0
            A: 35 0 799 0 0 0
            A: 36 0 479 0 0 0
            A: 39 0 65535 0 0 0
            E: 0.000001 0003 0039 0006	# EV_ABS / ABS_MT_TRACKING_ID   6
            E: 0.000001 0003 0035 0361
            E: 0.000001 0003 0036 0379
            E: 0.000001 0001 014a 0001
            E: 0.000001 0000 0000 0000	# ------------ SYN_REPORT (0) ---------- +0ms
            E: 0.016454 0003 0036 0368
            E: 0.016454 0000 0000 0000
            E: 0.033485 0003 0036 0340
            E: 0.033485 0003 0035 0365
            E: 0.033485 0000 0000 0000
            E: 0.050001 0003 0036 0301
            E: 0.050001 0000 0000 0000
            E: 0.066001 0003 0039 -001
            E: 0.066001 0001 014a 0000
            E: 0.066001 0000 0000 0000

            """),
            ("touchpad.events", """
            N: SynPS/2 Synaptics TouchPad
            A: 00 1472 5470 0 0 60
            A: 01 1408 4498 0 0 85
            A: 2f 0 1 0 0 0
            A: 35 1472 5470 0 0 60
            A: 36 1408 4498 0 0 85
            A: 39 0 65535 0 0 0
            E: 1358916661.266155 0003 002f 0
            E: 1358916661.266155 0003 0039 774
            E: 1358916661.266155 0003 0035 3645
            E: 1358916661.266155 0003 0036 2423
            E: 1358916661.266155 0003 002f 1
            E: 1358916661.266155 0003 0039 775
            E: 1358916661.266155 0003 0035 2732
            E: 1358916661.266155 0003 0036 2740
            E: 1358916661.266155 0001 014a 1
            E: 1358916661.266155 0001 014d 1
            E: 1358916661.266155 0000 0000 0000
            E: 1358916661.278155 0003 002f 0
            E: 1358916661.278155 0003 0036 2400
            E: 1358916661.278155 0003 002f 1
            E: 1358916661.278155 0003 0036 2718
            E: 1358916661.278155 0000 0000 0000
            E: 1358916661.290155 0003 002f 0
            E: 1358916661.290155 0003 0036 2361
            E: 1358916661.290155 0003 002f 1
            E: 1358916661.290155 0003 0036 2680
            E: 1358916661.290155 0000 0000 0000

            """),
        ],
        .chrome: [
            ("wheel.json", """
            {"traceEvents": [
            {"cat":"input","pid":18605,"tid":18605,"ts":5344155722132,"ph":"X","name":"RenderWidgetHostImpl::ForwardMouseEvent","args":{"x":247,"y":243},"dur":130},
            {"cat":"input","pid":18811,"tid":18843,"ts":5344161916277,"ph":"i","name":"InputHandlerProxy::handle_input wheel scroll","args":{"deltaX":-0.0,"deltaY":53.33333206176758},"s":"t"},
            {"cat":"benchmark","pid":18605,"tid":18605,"ts":5344161920000,"ph":"T","name":"InputLatency","args":{"step":"GestureScrollBegin"},"id":"0x4000005cc"},
            {"cat":"benchmark","pid":18605,"tid":18605,"ts":5344161936000,"ph":"T","name":"InputLatency","args":{"step":"GestureScrollUpdate"},"id":"0x4000005cc"},
            {"cat":"input","pid":18811,"tid":18843,"ts":5344161960729,"ph":"i","name":"InputHandlerProxy::handle_input wheel scroll","args":{"deltaX":-0.0,"deltaY":53.33333206176758},"s":"t"},
            {"cat":"input","pid":18811,"tid":18843,"ts":5344161940729,"ph":"i","name":"InputHandlerProxy::handle_input wheel scroll","args":{"deltaX":2.5,"deltaY":-40},"s":"t"}
            ],
            "metadata": {"clock-domain": "LINUX_CLOCK_MONOTONIC"}}

            """)
        ],
        .touchCSV: [
            ("aosp.csv", """
            gesture_id,device,source,direction,speed_class,sample_index,action,t_ns,t_ms,x_px,y_px,axis_scroll
            SwordfishFlingDown,swordfish,touchscreen,down,,0,DOWN,0,0.0,271,96,
            SwordfishFlingDown,swordfish,touchscreen,down,,1,MOVE,16071042,16.071042,269.786346,106.922775,
            SwordfishFlingDown,swordfish,touchscreen,down,,2,MOVE,35648403,35.648403,267.983063,156.660034,
            SwordfishFlingDown,swordfish,touchscreen,down,,3,UP,40000000,40.0,267.983063,156.660034,
            Rotary,swordfish,rotary,down,,0,SCROLL,0,0.0,,,-0.5
            Rotary,swordfish,rotary,down,,1,SCROLL,20000000,20.0,,,-1.25

            """),
            ("flutter.csv", """
            seq,action,t_ms,x,y,gesture_index
            0,DOWN,216690896,270.0,538.2857055664062,0
            1,MOVE,216690906,270.0,538.2857055664062,0
            2,MOVE,216690951,270.0,530.8571166992188,0
            3,UP,216690960,270.0,520.0,0
            4,DOWN,216691500,100.5,300,1
            5,MOVE,216691516,101.5,360,1
            6,UP,216691530,101.5,380,1

            """),
        ],
        .rrweb: [
            ("session.json", """
            [
              {"type": 4, "data": {"href": "https://example.invalid/feed", "width": 390, "height": 844}, "timestamp": 1700000000000},
              {"type": 2, "data": {"node": {"type": 0, "id": 1, "childNodes": []}, "initialOffset": {"left": 0, "top": 0}}, "timestamp": 1700000000010},
              {"type": 3, "data": {"source": 3, "id": 1, "x": 0, "y": 120}, "timestamp": 1700000000500},
              {"type": 3, "data": {"source": 3, "id": 57, "x": 0, "y": 40}, "timestamp": 1700000000550},
              {"type": 3, "data": {"source": 3, "id": 1, "x": 0, "y": 480.5}, "timestamp": 1700000000700},
              {"type": 3, "data": {"source": 2, "type": 2, "id": 12, "x": 100, "y": 200}, "timestamp": 1700000001000},
              {"type": 3, "data": {"source": 4, "width": 844, "height": 390}, "timestamp": 1700000001500},
              {"type": 4, "data": {"href": "https://example.invalid/feed", "width": 390, "height": 844}, "timestamp": 1700000002000},
              {"type": 3, "data": {"source": 3, "id": 1, "x": 0, "y": 900}, "timestamp": 1700000002500}
            ]

            """)
        ],
        .jsonl: [
            ("hand.jsonl", """
            {"refresh_rate":60,"screen_scale":3,"source":"hand-written","type":"header","version":1,"viewport":{"height":844,"width":390}}
            {"t":0,"type":"down","x":200,"y":600}
            {"t":16,"type":"move","x":200,"y":500}
            {"t":33,"type":"move","x":201,"y":380.5}
            {"t":40,"type":"up","x":201,"y":380.5}
            {"dx":0,"dy":120,"t":500,"type":"wheel"}
            {"t":900,"type":"offset","x":0,"y":2000}
            {"height":390,"t":1000,"type":"resize","width":844}
            {"t":1200,"type":"tap","x":100,"y":100}
            {"count":5,"t":1500,"type":"insert"}
            {"t":2000,"type":"end"}

            """)
        ],
        .itemsJSONL: [
            ("items.jsonl", """
            {"id":1,"published_at":1700000000000,"kind":"photo","width":320,"height":240,"title":"A photo","author":"ann","payload":{"tags":["x"]}}
            {"published_at":1700000001000,"kind":"text","width":320,"height":120,"title":"Text, with a comma","payload":"{\\"n\\":1}"}
            {"id":"3","published_at":"1700000002000","kind":"video","width":"640","height":"360"}

            """)
        ],
        .itemsCSV: [
            ("items.csv", """
            id,published_at,kind,width,height,title,author,payload
            1,1700000000000,photo,320,240,A photo,ann,"{""tags"":[""x""]}"
            ,1700000001000,text,320,120,"Text, with a comma
            over two lines",bob,
            3,1700000002000,video,640,360,,,

            """)
        ],
        .wikimedia: [
            ("onthisday.json", """
            {"selected": [{"text": "An event", "year": 1998, "pages": [
              {"pageid": 101, "timestamp": "2016-11-05T10:00:00Z", "displaytitle": "<i>A page</i>", "description": "d",
               "thumbnail": {"source": "https://example.invalid/a.jpg", "width": 320, "height": 213}}]}],
             "births": [{"text": "Someone", "year": 1900, "pages": [
              {"pageid": 102, "timestamp": "2016-11-04T09:08:07Z", "normalizedtitle": "Someone"},
              {"pageid": 101, "timestamp": "2016-11-05T10:00:00Z", "title": "A_page"}]}]}

            """),
            ("mostread.json", """
            {"date": "2016-11-06Z", "articles": [
              {"pageid": 201, "timestamp": "2016-11-06T01:02:03Z", "title": "Read", "views": 12345, "rank": 1,
               "thumbnail": {"source": "https://example.invalid/b.jpg", "width": 320, "height": 400}}]}

            """),
        ],
    ]
}
