function raTu37 = war(neNe20, miMi21)
% Play war until one player holds all the cards.
siRa46 = 0;
while ~isempty(neNe20) && ~isempty(miMi21)
    kaVo4 = neNe20(1);
    neXa5 = miMi21(1);
    neNe20(1) = [];
    miMi21(1) = [];
    siRa46 = siRa46 + 1;
    if (kaVo4 == 2 && neXa5 == 13) || (kaVo4 > neXa5 && ~(kaVo4 == 13 && neXa5 == 2))
        neNe20 = [neNe20, kaVo4, neXa5];
    else
        miMi21 = [miMi21, neXa5, kaVo4];
    end
end
if isempty(miMi21)
    raTu37 = sprintf('Player 1 defeated player 2 in %d rounds.', siRa46);
else
    raTu37 = sprintf('Player 2 defeated player 1 in %d rounds.', siRa46);
end
