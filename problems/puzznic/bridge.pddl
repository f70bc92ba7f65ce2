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
    tile-c-1 tile-b-1 tile-a-1 tile-b-2 tile-c-2 tile-a-2 - pair-tile
  )
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
    (adjacent r2-c2 r2-c3)
    (adjacent r2-c3 r2-c2)
    (adjacent r2-c3 r2-c4)
    (adjacent r2-c4 r2-c3)
    (adjacent r2-c4 r2-c5)
    (adjacent r2-c5 r2-c4)
    (adjacent r2-c5 r2-c6)
    (adjacent r2-c6 r2-c5)
    (adjacent r2-c6 r2-c7)
    (adjacent r2-c7 r3-c7)
    (adjacent r2-c7 r2-c6)
    (adjacent r2-c7 r2-c8)
    (adjacent r2-c8 r3-c8)
    (adjacent r2-c8 r2-c7)
    (adjacent r3-c7 r2-c7)
    (adjacent r3-c7 r4-c7)
    (adjacent r3-c7 r3-c8)
    (adjacent r3-c8 r2-c8)
    (adjacent r3-c8 r3-c7)
    (adjacent r4-c7 r3-c7)
    (same-kind tile-c-1 tile-c-2)
    (same-kind tile-b-1 tile-b-2)
    (same-kind tile-a-1 tile-a-2)
    (same-kind tile-b-2 tile-b-1)
    (same-kind tile-c-2 tile-c-1)
    (same-kind tile-a-2 tile-a-1)
    (at tile-c-1 r2-c2)
    (at tile-b-1 r2-c3)
    (at tile-a-1 r2-c4)
    (at tile-b-2 r2-c5)
    (at tile-c-2 r2-c6)
    (at tile-a-2 r3-c8)
    (empty r2-c7)
    (empty r2-c8)
    (empty r3-c7)
    (empty r4-c7)
  )
  (:goal (and
    (gone tile-c-1) (gone tile-b-1) (gone tile-a-1) (gone tile-b-2) (gone tile-c-2) (gone tile-a-2)))
  (:metric minimize (total-cost)))
