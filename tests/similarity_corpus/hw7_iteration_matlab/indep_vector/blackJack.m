function won = blackJack(start, pile, target)
% blackJack: draw until we reach the target, lose if we go over 21
vals = start;
vals(vals == 65) = 11;
vals(vals == 74 | vals == 75 | vals == 81) = 10;
pts = vals(1) + vals(2);
i = 0;
while pts < target
    i = i + 1;
    if i > numel(pile)
        break
    end
    c = pile(i);
    if c == 65
        c = 11;
    elseif any(c == [74 75 81])
        c = 10;
    end
    pts = pts + c;
end
won = pts >= target & pts <= 21;
end
