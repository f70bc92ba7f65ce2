; two groups vanish in one step: the push pairs the a tiles, the b above falls onto its partner
; optimal 1 moves (simulator BFS)
; Board:
;   ######
;   #b...#
;   #a.a.#
;   #b####
;   ######
(define (problem puzznic-two-groups)
  (:domain puzznic)
  (:objects
    r2-c2 r2-c3 r2-c4 r2-c5 - cell
    r3-c2 r3-c3 r3-c4 r3-c5 - cell
    r4-c2 - cell
    tile-a tile-b - kind)
  (:init
    (falling)
    (= (total-cost) 0)
    (right-of r2-c2 r2-c3)
    (below r2-c2 r3-c2)
    (right-of r2-c3 r2-c4)
    (below r2-c3 r3-c3)
    (right-of r2-c4 r2-c5)
    (below r2-c4 r3-c4)
    (below r2-c5 r3-c5)
    (right-of r3-c2 r3-c3)
    (below r3-c2 r4-c2)
    (right-of r3-c3 r3-c4)
    (right-of r3-c4 r3-c5)
    (has r2-c2 tile-b)
    (empty r2-c3)
    (empty r2-c4)
    (empty r2-c5)
    (has r3-c2 tile-a)
    (empty r3-c3)
    (has r3-c4 tile-a)
    (empty r3-c5)
    (has r4-c2 tile-b)
  )
  (:goal (and
    (empty r2-c2) (empty r2-c3) (empty r2-c4) (empty r2-c5) (empty r3-c2) (empty r3-c3) (empty r3-c4) (empty r3-c5)
    (empty r4-c2)))
  (:metric minimize (total-cost)))
