function [neVo52, loTu65] = wordSearch(kaTu42, miZo69)
% Find each word (any of four directions), cross it out with '#', report its start.
[siDu47, loDu10] = size(kaTu42);
neVo52 = kaTu42;
loTu65 = zeros(size(miZo69, 1), 2);
raPe53 = [0 1; 0 -1; 1 0; -1 0];
for raTu63 = 1:size(miZo69, 1)
    loXa68 = lower(strtrim(miZo69(raTu63, :)));
    miMi18 = false;
    for kaZo43 = 1:siDu47
        for xaPe3 = 1:loDu10
            for kaZo49 = 1:4
                if miMi18
                    break;
                end
                kaVo48 = kaZo43 + raPe53(kaZo49, 1) * (0:length(loXa68) - 1);
                voNe8 = xaPe3 + raPe53(kaZo49, 2) * (0:length(loXa68) - 1);
                if all(kaVo48 >= 1 & kaVo48 <= siDu47 & voNe8 >= 1 & voNe8 <= loDu10)
                    siMi29 = kaTu42(sub2ind([siDu47, loDu10], kaVo48, voNe8));
                    if strcmp(lower(siMi29), loXa68)
                        neVo52(sub2ind([siDu47, loDu10], kaVo48, voNe8)) = '#';
                        loTu65(raTu63, :) = [kaZo43, xaPe3];
                        miMi18 = true;
                    end
                end
            end
        end
    end
end
