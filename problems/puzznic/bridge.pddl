; a vertical stack used as a bridge: c then b fill the hole so that a can cross to its partner
; optimal 16 moves (simulator BFS)
; Board:
;   #########
;   #cbabc..#
;   ######.a#
;   ######.##
;   #########
(define (problem puzznic-bridge)
  (:domain puzznic)
  (:objects
    r2-c2 r2-c3 r2-c4 r2-c5 r2-c6 r2-c7 r2-c8 - cell
    r3-c7 r3-c8 - cell
    r4-c7 - cell
    tile-a tile-b tile-c - kind)
  (:init
    (falling)
    (= (total-cost) 0)
    (right-of r2-c2 r2-c3)
    (right-of r2-c3 r2-c4)
    (right-of r2-c4 r2-c5)
    (right-of r2-c5 r2-c6)
    (right-of r2-c6 r2-c7)
    (right-of r2-c7 r2-c8)
    (below r2-c7 r3-c7)
    (below r2-c8 r3-c8)
    (right-of r3-c7 r3-c8)
    (below r3-c7 r4-c7)
    (has r2-c2 tile-c)
    (has r2-c3 tile-b)
    (has r2-c4 tile-a)
    (has r2-c5 tile-b)
    (has r2-c6 tile-c)
    (empty r2-c7)
    (empty r2-c8)
    (empty r3-c7)
    (has r3-c8 tile-a)
    (empty r4-c7)
  )
  (:goal (and
    (empty r2-c2) (empty r2-c3) (empty r2-c4) (empty r2-c5) (empty r2-c6) (empty r2-c7) (empty r2-c8) (empty r3-c7)
    (empty r3-c8) (empty r4-c7)))
  (:metric minimize (total-cost)))
